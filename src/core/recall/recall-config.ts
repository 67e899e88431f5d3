/**
 * Every recall weight, limit and constant in one flat object with documented defaults, so
 * re-tuning (another embedder, another corpus) touches only this. Defaults were tuned on the development
 * conversations (1-5) of LoCoMo only; conversations 6-10 are held out. `Engram.open({ recall })` takes
 * any subset of the keys.
 */
export interface RecallConfig {
  /** Default number of hits. */
  k: number;
  /** Candidates each channel contributes before fusion… */
  candidates: number;
  /** …or this many per requested hit, when that is more. */
  candidatesPerHit: number;
  /** Candidates of the entity channel (a lexical search over the query's names), at most. */
  entityCandidates: number;
  /** `score`: normalised-score fusion (default, better on LoCoMo); `rrf`: weighted reciprocal-rank fusion. */
  fusion: 'score' | 'rrf';
  /** Reciprocal-rank-fusion constant (fusion `rrf`). */
  rrfK: number;
  /** Lexical (BM25) channel weight; its score is normalised by the best hit to 0..1. */
  lexicalWeight: number;
  /**
   * Exponent of a lexical hit's query coverage (the idf-weighted share of the query's terms it contains)
   * applied to its normalised BM25 score; 0 turns it off. Matching one common word of a long question
   * is weak evidence even when no memory matches more.
   */
  lexicalCoverage: number;
  /** BM25 term-frequency saturation. */
  bm25K1: number;
  /** BM25 length normalisation (0 = none, 1 = full). Memories are short; less normalisation ranks better. */
  bm25B: number;
  /** Semantic (vector) channel weight; its score is the z-score of the cosine among the candidates, / `semanticZScale`. */
  semanticWeight: number;
  /** Divisor of the semantic z-score, which puts a strong cosine (z ≈ 2-4) on the lexical channel's 0..1 scale. */
  semanticZScale: number;
  /**
   * Part vectors (`part-scores.ts`): a semantic candidate whose best sentence is closer to the query
   * than its whole text gains this share of the difference: cosine + partWeight·max(0, best − cosine)
   * (1: the closer of the two); 0 turns it off (and the store's part vectors are not read).
   */
  partWeight: number;
  /**
   * Part vectors: the semantic channel reads up to this many times its candidates by whole vector,
   * re-ranks them, and keeps the best. Only where the store's search costs no more for them (an exact
   * scan); an HNSW-indexed scope gives its candidates and the few its search found beside them.
   */
  partWidening: number;
  /**
   * Short queries lean on meaning. A query of n content terms with n ≤ `shortQueryTerms` moves the share
   * s = (shortQueryTerms + 1 − n) / shortQueryTerms of the way from `semanticWeight` and
   * `lexicalCoverage` to `shortQuerySemanticWeight` and `shortQueryLexicalCoverage` (one term: all the
   * way). Two or three words give BM25 little to go on: a memory matching one of them is as good as any
   * other that does, and synonyms ("pets" for a puppy) match nothing. 0 turns it off.
   */
  shortQueryTerms: number;
  shortQuerySemanticWeight: number;
  shortQueryLexicalCoverage: number;
  /** Entity channel weight: the fraction of the query's named entities a memory mentions. */
  entityWeight: number;
  /**
   * Participants (`participants.ts`): when the query names people who together speak at least this share
   * of the scope's newest turns (both people of a two-person conversation), the semantic channel embeds
   * the query without their names, which match every turn alike; 0 turns it off.
   */
  participantShare: number;
  /** Participants: how many of the scope's newest episodes are sampled for their speakers… */
  participantSample: number;
  /** …and how many of those must have a speaker for the sample to count. */
  participantMinTurns: number;
  /** Temporal channel weight: memories whose event time falls in a date window named by the query. */
  temporalWeight: number;
  /**
   * Mention channel weight (`mentioned-time.ts`): a candidate whose own text names a time inside the
   * query's date window ("yesterday", written the day after the day asked about); 0 turns it off.
   */
  mentionWeight: number;
  /** Mention channel: what was written up to this many days after the window is read for the times its text names. */
  mentionLagDays: number;
  /**
   * Mention channel: for a window that reaches past the query's "now" ("this week", "tomorrow"), what was
   * written up to this many days before it is read too: a plan for a day to come was written before it.
   */
  mentionLeadDays: number;
  /**
   * A query that asks only for a time ("what did I do yesterday?", "summarise last week": a date window
   * and no topic, `QueryAnalysis.windowOnly`) is ranked with the temporal and mention weights raised to
   * this and no lexical weight, so what happened in the window comes before what only says the date
   * word; 0 leaves such a query to the usual weights.
   */
  windowOnlyWeight: number;
  /** Graph channel weight: memories one edge away from the strongest hits. */
  graphWeight: number;
  /** Affect channel weight: mood and valence match when the query carries emotion. */
  affectWeight: number;
  /** The query's emotional intensity from which the affect channel counts (weaker emotion is noise). */
  affectMinIntensity: number;
  /** Affect score of a memory whose valence has the query's sign… */
  affectValenceShare: number;
  /** …plus this when it shares one of the query's moods. */
  affectMoodShare: number;
  /** Graph channel: how many of the strongest hits seed spreading activation. */
  graphSeeds: number;
  /** Graph channel: spreading activation's hops, decay per hop, fan-out damping, energy floor, links per node and nodes reached. */
  graphMaxHops: number;
  graphDecay: number;
  graphFanOutPower: number;
  graphThreshold: number;
  graphMaxFanOut: number;
  graphMaxNodes: number;
  /** Neighbourhood: share of an adjacent turn's relevance (same thread) added to a memory. */
  neighbourWeight: number;
  /**
   * Neighbourhood: a neighbouring turn by the same speaker ("Ann: …" then "Ann: …", a thought split over
   * messages) shares this multiple of its share; 1 treats both speakers alike.
   */
  neighbourSameSpeaker: number;
  /**
   * Neighbourhood: how many turns on each side share relevance; a turn d away shares
   * `neighbourDecay`^(d − 1) of what an adjacent one does. 1 reads only adjacent turns.
   */
  neighbourWindow: number;
  neighbourDecay: number;
  /** Neighbourhood: how many of the strongest candidates have their adjacent turns read. */
  neighbourAnchors: number;
  /**
   * Neighbourhood of episodes written without a session or source conversation: the adjacent episodes
   * of the same scope (by event time) count as turns of one conversation when they happened at most
   * this many minutes apart; 0 gives such episodes no neighbours.
   */
  neighbourGapMinutes: number;
  /** A memory that is only a question carries no answer: its relevance is scaled by (1 - this)… */
  questionPenalty: number;
  /** …and this share of it goes to the turn that follows it (the reply). */
  questionForward: number;
  /** Final blend: recency (exponential decay since last access, else since recorded). */
  recencyWeight: number;
  /** Half-life of recency, in days. */
  recencyHalfLifeDays: number;
  /** Final blend: importance (unscored counts as 1.0). */
  importanceWeight: number;
  /** Final blend: activation = recency × importance × relevance (seed 004). */
  activationWeight: number;
  /** MMR trade-off: 1 = pure relevance; lower values favour diverse hits. */
  mmrLambda: number;
  /** MMR ranks this many candidates per requested hit (its pool is `mmrPoolPerHit` times these); the first k are the hits. */
  rankedPerHit: number;
  /** MMR reorders a pool of this many candidates per ranked hit… */
  mmrPoolPerHit: number;
  /** …and at least this many. */
  mmrMinPool: number;
  /**
   * Re-rank by the persona of the read's scopes (seed 004) on every recall and context; off by default.
   * A call's `persona` option overrides it. With no persona stored, nothing changes.
   */
  persona: boolean;
  /** Persona stage: a hit's score is scaled by 1 + personaWeight × affinity (affinity -1..1). */
  personaWeight: number;
}

/** The defaults; see `bench/results/locomo.md` for what they measure. */
export const DEFAULT_RECALL_CONFIG: RecallConfig = Object.freeze({
  k: 10,
  candidates: 100,
  candidatesPerHit: 3,
  entityCandidates: 50,
  fusion: 'score',
  rrfK: 60,
  lexicalWeight: 1,
  lexicalCoverage: 0.75,
  bm25K1: 1.2,
  bm25B: 0.4,
  semanticWeight: 0.4,
  semanticZScale: 4,
  partWeight: 1,
  partWidening: 3,
  shortQueryTerms: 4,
  shortQuerySemanticWeight: 0.8,
  shortQueryLexicalCoverage: 2,
  entityWeight: 0.2,
  participantShare: 0.8,
  participantSample: 400,
  participantMinTurns: 20,
  temporalWeight: 0.15,
  mentionWeight: 0.3,
  mentionLagDays: 8,
  mentionLeadDays: 30,
  windowOnlyWeight: 1.5,
  graphWeight: 0.1,
  affectWeight: 0.05,
  affectMinIntensity: 2,
  affectValenceShare: 0.5,
  affectMoodShare: 0.5,
  graphSeeds: 5,
  graphMaxHops: 2,
  graphDecay: 0.7,
  graphFanOutPower: 0.5,
  graphThreshold: 0.005,
  graphMaxFanOut: 30,
  graphMaxNodes: 200,
  neighbourWeight: 0.3,
  neighbourSameSpeaker: 1,
  neighbourWindow: 3,
  neighbourDecay: 0.5,
  neighbourAnchors: 30,
  neighbourGapMinutes: 60,
  questionPenalty: 0.4,
  questionForward: 0.3,
  recencyWeight: 0.02,
  recencyHalfLifeDays: 30,
  importanceWeight: 0.02,
  activationWeight: 0.05,
  mmrLambda: 1,
  rankedPerHit: 2,
  mmrPoolPerHit: 3,
  mmrMinPool: 30,
  persona: false,
  personaWeight: 0.5,
});

/**
 * The config one query is ranked with: for a short query (`shortQueryTerms`), the semantic weight and
 * the lexical coverage exponent move towards their short-query values. A semantic weight the caller
 * set for this call is kept as given, and a read without one of the two channels is left alone.
 */
export function configForQuery(config: RecallConfig, termCount: number, semanticPinned = false, windowOnly = false): RecallConfig {
  if (windowOnly && config.windowOnlyWeight > 0 && config.temporalWeight > 0) {
    return {
      ...config,
      lexicalWeight: 0,
      temporalWeight: Math.max(config.temporalWeight, config.windowOnlyWeight),
      mentionWeight: config.mentionWeight > 0 ? Math.max(config.mentionWeight, config.windowOnlyWeight) : 0,
    };
  }
  const t = config.shortQueryTerms;
  if (t <= 0 || termCount > t || semanticPinned || config.semanticWeight <= 0 || config.lexicalWeight <= 0) return config;
  const share = (t + 1 - Math.max(1, termCount)) / t;
  return {
    ...config,
    semanticWeight: config.semanticWeight + share * (config.shortQuerySemanticWeight - config.semanticWeight),
    lexicalCoverage: config.lexicalCoverage + share * (config.shortQueryLexicalCoverage - config.lexicalCoverage),
  };
}
