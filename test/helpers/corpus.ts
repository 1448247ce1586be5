// One corpus loader for tests and benches; it lives in bench/ so bench never imports test/.
export { loadCorpus, STRUCTURED_KINDS, type CorpusCase } from '../../bench/corpus.js';
