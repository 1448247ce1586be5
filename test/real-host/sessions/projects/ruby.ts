/**
 * HELD-OUT session: nobody tunes a distiller against it.
 *
 * A Ruby gem (minitest through rake, rubocop, gem build; no gem is fetched): `pricetag`, money,
 * VAT and invoices. Two bugs are committed: VAT rounds down instead of half-up, and an invoice
 * applies its discount after tax.
 */
import { bash, edit, read, type Session } from '../session.js';

const MONEY = `# frozen_string_literal: true

module Pricetag
  # An amount in cents of one currency.
  class Money
    include Comparable

    attr_reader :cents, :currency

    def initialize(cents, currency = 'EUR')
      raise ArgumentError, "cents must be an Integer, got #{cents.class}" unless cents.is_a?(Integer)

      @cents = cents
      @currency = currency
    end

    def self.parse(text, currency = 'EUR')
      whole, frac = text.strip.delete(',').split('.')
      frac = (frac || '0').ljust(2, '0')[0, 2]
      sign = whole.start_with?('-') ? -1 : 1
      new(sign * (whole.delete('-').to_i * 100 + frac.to_i), currency)
    end

    def +(other)
      check(other)
      Money.new(cents + other.cents, currency)
    end

    def -(other)
      check(other)
      Money.new(cents - other.cents, currency)
    end

    def *(factor)
      Money.new((cents * factor).round, currency)
    end

    def <=>(other)
      check(other)
      cents <=> other.cents
    end

    def to_s
      format('%<sign>s%<units>d.%<cents>02d %<cur>s', sign: cents.negative? ? '-' : '', units: cents.abs / 100, cents: cents.abs % 100, cur: currency)
    end

    private

    def check(other)
      raise ArgumentError, "currency mismatch: #{currency} vs #{other.currency}" unless other.currency == currency
    end
  end
end
`;

const TAX = `# frozen_string_literal: true

module Pricetag
  # VAT rates by country and category; amounts round half-up to the cent.
  module Tax
    RATES = {
      'DE' => { standard: 19, reduced: 7 },
      'FR' => { standard: 20, reduced: 5.5 },
      'NL' => { standard: 21, reduced: 9 },
      'AT' => { standard: 20, reduced: 10 }
    }.freeze

    module_function

    def rate(country, category = :standard)
      RATES.fetch(country) { raise KeyError, "no VAT rates for #{country}" }.fetch(category)
    end

    def vat(money, country, category = :standard)
      cents = (money.cents * rate(country, category) / 100.0).floor
      Money.new(cents, money.currency)
    end

    def gross(money, country, category = :standard)
      money + vat(money, country, category)
    end
  end
end
`;

const INVOICE = `# frozen_string_literal: true

module Pricetag
  # Lines, one discount, VAT of one country.
  class Invoice
    Line = Struct.new(:description, :unit, :quantity, :category, keyword_init: true)

    attr_reader :lines, :country

    def initialize(country:, discount_percent: 0)
      @country = country
      @discount_percent = discount_percent
      @lines = []
    end

    def add(description, unit, quantity: 1, category: :standard)
      @lines << Line.new(description: description, unit: unit, quantity: quantity, category: category)
      self
    end

    def net
      lines.map { |l| l.unit * l.quantity }.reduce(Money.new(0)) { |a, b| a + b }
    end

    def vat
      lines.map { |l| Tax.vat(l.unit * l.quantity, country, l.category) }.reduce(Money.new(0)) { |a, b| a + b }
    end

    # The discount comes off the net amount; VAT is charged on what is left.
    def total
      net + vat - (net * (@discount_percent / 100.0))
    end

    def summary
      out = lines.map { |l| "#{l.quantity} x #{l.description} @ #{l.unit}" }
      out << "total #{total}"
      out.join("\\n")
    end
  end
end
`;

function taxTest(): string {
  const cases: [string, string, number, number][] = [];
  const rates: Record<string, [number, number]> = { DE: [19, 7], FR: [20, 5.5], NL: [21, 9], AT: [20, 10] };
  const amounts = [1, 99, 250, 1005, 1999, 12345];
  for (const [c, [std, red]] of Object.entries(rates)) {
    for (const a of amounts) {
      cases.push([c, 'standard', a, Math.round((a * std) / 100 + 1e-9)]);
      cases.push([c, 'reduced', a, Math.round((a * red) / 100 + 1e-9)]);
    }
  }
  return `# frozen_string_literal: true

require 'test_helper'

class TestTax < Minitest::Test
  include Pricetag

  def test_unknown_country
    err = assert_raises(KeyError) { Tax.rate('XX') }
    assert_equal 'no VAT rates for XX', err.message
  end

${cases.map(([c, cat, a, v]) => `  def test_vat_${c.toLowerCase()}_${cat}_${a}\n    assert_equal ${v}, Tax.vat(Money.new(${a}), '${c}', :${cat}).cents\n  end`).join('\n\n')}
end
`;
}

const MONEY_TEST = `# frozen_string_literal: true

require 'test_helper'

class TestMoney < Minitest::Test
  include Pricetag

  def test_parse
    assert_equal 123_456, Money.parse('1,234.56').cents
    assert_equal(-250, Money.parse('-2.5').cents)
  end

  def test_to_s
    assert_equal '12.05 EUR', Money.new(1205).to_s
    assert_equal '-0.50 EUR', Money.new(-50).to_s
  end

  def test_currency_mismatch
    assert_raises(ArgumentError) { Money.new(1) + Money.new(1, 'USD') }
  end

  def test_rejects_floats
    assert_raises(ArgumentError) { Money.new(1.5) }
  end

  def test_multiply_rounds
    assert_equal 334, (Money.new(1001) * (1 / 3.0)).cents
  end
end
`;

const INVOICE_TEST = `# frozen_string_literal: true

require 'test_helper'

class TestInvoice < Minitest::Test
  include Pricetag

  def invoice(discount = 0)
    Invoice.new(country: 'DE', discount_percent: discount)
           .add('Consulting', Money.new(10_000), quantity: 3)
           .add('Book', Money.new(2_000), category: :reduced)
  end

  def test_net
    assert_equal 32_000, invoice.net.cents
  end

  def test_vat
    assert_equal 5_840, invoice.vat.cents
  end

  def test_total_without_discount
    assert_equal 37_840, invoice.total.cents
  end

  def test_discount_comes_off_the_net
    # 10% off 32,000 net is 28,800; VAT on what is left: 5,130 + 126 = 5,256
    assert_equal 34_056, invoice(10).total.cents
  end

  def test_summary
    assert_match(/total 378.40 EUR/, invoice.summary)
  end
end
`;

export function rubyFiles(): Record<string, string> {
  return {
    'README.md': `# pricetag

Money, VAT and invoices for the shop's EU customers.

    rake test       # minitest
    rubocop
    gem build pricetag.gemspec

VAT rounds half-up to the cent. An invoice's discount comes off the net amount, and VAT is
charged on what is left.
`,
    '.gitignore': '*.gem\n/pkg/\n',
    'pricetag.gemspec': `# frozen_string_literal: true

require_relative 'lib/pricetag/version'

Gem::Specification.new do |s|
  s.name = 'pricetag'
  s.version = Pricetag::VERSION
  s.summary = 'Money, VAT and invoices'
  s.authors = ['Dana Reyes']
  s.license = 'MIT'
  s.files = Dir['lib/**/*.rb'] + ['README.md']
  s.required_ruby_version = '>= 3.0'
end
`,
    Rakefile: `# frozen_string_literal: true

require 'rake/testtask'

Rake::TestTask.new(:test) do |t|
  t.libs << 'test' << 'lib'
  t.test_files = FileList['test/test_*.rb']
  t.options = '--seed=4242'
  t.warning = false
end

task default: :test
`,
    '.rubocop.yml': 'AllCops:\n  TargetRubyVersion: 3.1\n  NewCops: disable\n  SuggestExtensions: false\n',
    'lib/pricetag.rb': "# frozen_string_literal: true\n\nrequire_relative 'pricetag/version'\nrequire_relative 'pricetag/money'\nrequire_relative 'pricetag/tax'\nrequire_relative 'pricetag/invoice'\n",
    'lib/pricetag/version.rb': "# frozen_string_literal: true\n\nmodule Pricetag\n  VERSION = '0.6.2'\nend\n",
    'lib/pricetag/money.rb': MONEY,
    'lib/pricetag/tax.rb': TAX,
    'lib/pricetag/invoice.rb': INVOICE,
    'test/test_helper.rb': "# frozen_string_literal: true\n\nrequire 'minitest/autorun'\nrequire 'pricetag'\n",
    'test/test_tax.rb': taxTest(),
    'test/test_money.rb': MONEY_TEST,
    'test/test_invoice.rb': INVOICE_TEST,
  };
}

export const rubySession: Session = {
  name: 'ruby-gem',
  ecosystem: 'Ruby gem: minitest through rake, rubocop, gem build',
  set: 'held-out',
  needs: ['ruby', 'rake', 'rubocop', 'gem', 'git'],
  files: rubyFiles,
  history: [
    { message: 'Money with currencies', paths: ['.gitignore', 'lib/pricetag/version.rb', 'lib/pricetag/money.rb', 'test/test_helper.rb', 'test/test_money.rb'] },
    { message: 'VAT rates for DE, FR, NL, AT', paths: ['lib/pricetag/tax.rb', 'test/test_tax.rb'] },
    { message: 'Invoices with one discount', paths: ['.'] },
  ],
  steps: [
    bash('ls -la', 'List the gem', 'enumeration', { keep: ['Rakefile', 'pricetag.gemspec', 'lib', 'test'] }),
    bash('git log --oneline', 'History', 'git', { keep: ['Invoices with one discount', 'VAT rates for DE, FR, NL, AT', 'Money with currencies'] }),
    bash('find lib test -name "*.rb" | sort', 'Ruby files', 'enumeration', { keep: ['lib/pricetag/tax.rb', 'test/test_invoice.rb'] }),
    read('README.md', 'first-read'),
    read('lib/pricetag/tax.rb', 'first-read'),
    bash('rake test', 'Run the tests', 'test-fail', { fails: true, keep: ['TestInvoice#test_discount_comes_off_the_net', 'TestTax#test_vat_de_standard_1005', /\d+ runs, \d+ assertions, \d+ failures, 0 errors, 0 skips/] }),
    read('test/test_tax.rb', 'first-read', { offset: 1, limit: 30 }),
    read('lib/pricetag/tax.rb', 're-read', { offset: 18, limit: 6 }),
    edit('lib/pricetag/tax.rb', 'cents = (money.cents * rate(country, category) / 100.0).floor', 'cents = (money.cents * rate(country, category) / 100.0).round'),
    read('lib/pricetag/tax.rb', 're-read-after-edit'),
    bash('ruby -Ilib -Itest test/test_tax.rb', 'Tax tests only', 'test-pass', { keep: [/\d+ runs, \d+ assertions, 0 failures, 0 errors, 0 skips/] }),
    bash('rake test', 'All tests again', 'test-fail', { fails: true, keep: ['TestInvoice#test_discount_comes_off_the_net', /1 failures/] }),
    read('lib/pricetag/invoice.rb', 'first-read'),
    read('test/test_invoice.rb', 'first-read'),
    edit('lib/pricetag/invoice.rb', '      net + vat - (net * (@discount_percent / 100.0))', "      factor = 1 - (@discount_percent / 100.0)\n      lines.map do |l|\n        discounted = l.unit * l.quantity * factor\n        discounted + Tax.vat(discounted, country, l.category)\n      end.reduce(Money.new(0)) { |a, b| a + b }"),
    bash('rake test', 'All tests', 'test-pass', { keep: [/\d+ runs, \d+ assertions, 0 failures, 0 errors, 0 skips/] }),
    // TESTOPTS takes the place of the Rakefile's options, its --seed too: pinned again, or the
    // two runs print the tests in different orders and no fold could be found in the other run.
    bash('rake test TESTOPTS="-v --seed=4242"', 'All tests, verbose', 'chain-wrapped', { producer: 'test-pass', keep: [/\d+ runs, \d+ assertions, 0 failures, 0 errors, 0 skips/] }),
    bash('rubocop', 'Lint', 'build-lint', { fails: true, keep: ['lib/pricetag/money.rb', 'Layout/LineLength', /\d+ files inspected, \d+ offenses detected/] }),
    bash('rubocop --fail-level E lib', 'Lint, errors only fail', 'build-lint', { keep: ['Layout/LineLength', /offenses detected/] }),
    read('lib/pricetag/invoice.rb', 're-read-after-edit'),
    bash('gem build pricetag.gemspec', 'Build the gem', 'build-lint', { keep: ['Successfully built RubyGem', 'File: pricetag-0.6.2.gem'] }),
    bash('timeout 60 rake', 'Default task', 'chain-wrapped', { producer: 'test-pass', keep: [/0 failures, 0 errors, 0 skips/] }),
    read('lib/pricetag/tax.rb', 're-read'),
    bash('git status --short', 'What changed', 'git', { keep: [' M lib/pricetag/invoice.rb', ' M lib/pricetag/tax.rb'] }),
    bash('git diff', 'The fix', 'git', { keep: ['+      cents = (money.cents * rate(country, category) / 100.0).round', '+      factor = 1 - (@discount_percent / 100.0)'] }),
    bash('rm -f pricetag-*.gem && git add -A && git commit -q -m "VAT rounds half-up; discount before VAT" && git log --oneline -n 3', 'Commit', 'git', { keep: ['VAT rounds half-up; discount before VAT'] }),
    bash('git show HEAD', 'The commit', 'git', { keep: ['VAT rounds half-up; discount before VAT', '-      cents = (money.cents * rate(country, category) / 100.0).floor'] }),
  ],
};
