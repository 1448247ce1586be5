import type { DistillerSpec, ProducerRoute } from '../kit/spec.js';
import { NOTHING, onlyWhere, type Recogniser } from './hide.js';
import { plural, programOf, subcommand, textOf } from './shared.js';

/*
 * Infra: terraform plan/apply (resource lines, attribute changes and the Plan/Apply
 * summary stay; refresh, reading and in-progress lines, attributes that are only
 * `(known after apply)` and the fixed legend go), docker
 * build (layer transfer, cache and export progress out; step headers, RUN output and
 * errors in). Counts are never derived: the summary lines are terraform's own. kubectl
 * tables are enumerations and pass untouched.
 */
const TERRAFORM_NOISE: RegExp[] = [
  /^\S+: (Refreshing state\.\.\.|Reading\.\.\.|Read complete after \S+|Creating\.\.\.|Modifying\.\.\.|Destroying\.\.\.|Still (creating|modifying|destroying|reading)\.\.\.)( \[.*\])?$/,
  /^Terraform used the selected providers to generate the following execution$/,
  /^plan\. Resource actions are indicated with the following symbols:$/,
  /^ {2}[+~-] (create|update in-place|destroy)$/,
  /^[-+]\/[-+] (destroy and then create replacement|create replacement and then destroy)$/,
  /^ {1,2}<= read \(data resources\)$/,
  /^─+$/,
  // Only a resource attribute (a schema identifier): a map entry's key is data the plan
  // states (which keys an output will have), and hiding it makes the map read as empty.
  /^\s+[+~-] [a-z_][a-z0-9_]*\s+= \(known after apply\)$/,
  /^Note: You didn't use the -out option to save this plan, so Terraform can't$/,
  /^guarantee to take exactly these actions if you run "terraform apply" now\.$/,
];
const DOCKER_NOISE: RegExp[] = [
  // BuildKit plain progress
  /^#\d+ (DONE [\d.]+s|CACHED)$/,
  /^#\d+ \[internal\] load (build definition|\.dockerignore|metadata for .*|build context)$/,
  /^#\d+ (transferring (dockerfile|context): .*|sha256:[0-9a-f]{64} [\d.]+[kMG]?B \/ [\d.]+[kMG]?B [\d.]+s( done)?|extracting sha256:[0-9a-f]{64}( [\d.]+s)?( done)?|resolve \S+ [\d.]+s done|exporting layers( [\d.]+s)?( done)?|writing image sha256:[0-9a-f]{64}( done)?|naming to \S+( done)?|exporting config sha256:.*|exporting manifest sha256:.*|unpacking to \S+.*)$/,
  // legacy builder
  /^ ---> (Running in [0-9a-f]+|Using cache|[0-9a-f]{12})$/,
  /^Removing intermediate container [0-9a-f]+$/,
  /^Sending build context to Docker daemon\s+[\d.]+[kMG]?B$/,
];

const matcher = (patterns: RegExp[]) => (t: string) => patterns.some((re) => re.test(t));

/**
 * Terraform's noise outside `Changes to Outputs:`: every line of that section is what the
 * outputs will be (an output's `(known after apply)` is its answer), so none is hidden. The
 * section runs until the first line that is not indented. Called once per line, in order.
 */
function terraformNoise(): (t: string) => boolean {
  const noise = matcher(TERRAFORM_NOISE);
  let inOutputs = false;
  return (t) => {
    if (t.startsWith('Changes to Outputs:')) { inOutputs = true; return false; }
    if (inOutputs) {
      if (t.startsWith(' ')) return false;
      inOutputs = false;
    }
    return noise(t);
  };
}

/** Only what the patterns say goes, one marker per contiguous run, worded by `noun`. */
const patterns = (isNoise: (t: string) => boolean, noun: string) => onlyWhere((l) => isNoise(textOf(l)), (h) => `${plural(h.length, noun)} hidden`);

/** What a run recognises, by program: terraform's or docker's progress, or nothing. */
function recogniser(route: ProducerRoute): Recogniser {
  const p = programOf(route.argv);
  if (p === 'terraform' || p === 'tofu') return patterns(terraformNoise(), 'refresh, progress and legend line');
  if (p === 'docker' || p === 'podman' || p === 'buildah') return patterns(matcher(DOCKER_NOISE), 'layer, cache and export progress line');
  return NOTHING;
}

const TF_SUBS = new Set(['plan', 'apply', 'destroy', 'refresh', 'import']);

function matches(argv: string[]): boolean {
  const p = programOf(argv);
  const sub = subcommand(argv);
  if (p === 'terraform' || p === 'tofu') return TF_SUBS.has(sub);
  if (p === 'docker' || p === 'podman') return sub === 'build' || (sub === 'buildx' && argv.includes('build')) || (sub === 'image' && argv.includes('build'));
  if (p === 'buildah') return sub === 'bud' || sub === 'build';
  return false;
}

export default {
  name: 'infra',
  family: 'infra',
  matches,
  rewrite: true,
  lines: recogniser,
  examples: [
    // corpus/cases/752-terraform-apply, lines 95-110
    {
      command: 'terraform apply -auto-approve -no-color',
      input: `terraform_data.config: Creating...
terraform_data.config: Creation complete after 0s [id=558b1427-8c1c-e2f7-ae0f-e8fb11b915c6]
terraform_data.svc["search"]: Creating...
terraform_data.svc["search"]: Creation complete after 0s [id=15680691-4a2a-826c-afb7-4a6a6c657775]
terraform_data.svc["worker"]: Creating...
terraform_data.svc["api"]: Creating...
terraform_data.svc["web"]: Creating...
terraform_data.svc["mailer"]: Creating...
terraform_data.svc["cron"]: Creating...
terraform_data.svc["worker"]: Creation complete after 0s [id=fc22800c-1a37-fe44-d3ad-097693e1544e]
terraform_data.svc["api"]: Creation complete after 0s [id=dac3528b-dd62-5dcc-b61f-84f32d7250d1]
terraform_data.svc["web"]: Creation complete after 0s [id=d8760849-3d90-0995-f939-5cba66e9cfcc]
terraform_data.svc["mailer"]: Creation complete after 0s [id=71ba1d79-5afd-958a-c098-c339d675823f]
terraform_data.svc["cron"]: Creation complete after 0s [id=f375d898-51a6-6e35-1a6a-5bc178e32e32]

Apply complete! Resources: 7 added, 0 changed, 0 destroyed.
`,
      output: `terraform_data.config: Creating...
terraform_data.config: Creation complete after 0s [id=558b1427-8c1c-e2f7-ae0f-e8fb11b915c6]
terraform_data.svc["search"]: Creating...
terraform_data.svc["search"]: Creation complete after 0s [id=15680691-4a2a-826c-afb7-4a6a6c657775]
[omni: 5 refresh, progress and legend lines hidden — omni retrieve <handle>]
terraform_data.svc["worker"]: Creation complete after 0s [id=fc22800c-1a37-fe44-d3ad-097693e1544e]
terraform_data.svc["api"]: Creation complete after 0s [id=dac3528b-dd62-5dcc-b61f-84f32d7250d1]
terraform_data.svc["web"]: Creation complete after 0s [id=d8760849-3d90-0995-f939-5cba66e9cfcc]
terraform_data.svc["mailer"]: Creation complete after 0s [id=71ba1d79-5afd-958a-c098-c339d675823f]
terraform_data.svc["cron"]: Creation complete after 0s [id=f375d898-51a6-6e35-1a6a-5bc178e32e32]

Apply complete! Resources: 7 added, 0 changed, 0 destroyed.
`,
    },
  ],
} satisfies DistillerSpec;
