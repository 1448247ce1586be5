# Shared by capture-extra-2.sh, capture-extra-3.sh and capture-fresh-1.sh (keep_re): every output line (ANSI stripped) matching one of the regexes given, trimmed, once each; a named group k keeps only that part.
import re, sys
raw = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
ANSI = re.compile(r'\x1b\[[0-9;?]*[ -/]*[@-~]')
pats = [re.compile(p) for p in sys.argv[2:]]
seen = set()
for line in re.split(r'\r\n|\n|\r', raw):
    line = ANSI.sub('', line)
    for p in pats:
        m = p.search(line)
        if not m:
            continue
        s = (m.group('k') if 'k' in p.groupindex else line).strip()
        if s and s not in seen and s in raw:
            seen.add(s); print(s)
        break
