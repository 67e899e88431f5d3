/**
 * Scoring of capture against the labelled set. A predicted claim is correct when at least half of its
 * content words belong to the turn's expected claims; an expected claim is found when at least 60% of
 * its content words appear in the turn's predicted claims. Content words: lower-cased words and numbers
 * without function words.
 */
import type { LabelledTurn } from '../../fixtures/capture/turns.js';

const FUNCTION_WORDS = new Set(
  (
    'a an the this that these those our my your their his her its of for to in on at by with from and or as is are was were be been being ' +
    'has have had do does did will would shall should can could it they them we us he she him i me you there here so very really just also too ' +
    "now still again about into over up not no am i'm we're it's all every any some only"
  ).split(' '),
);

export function contentWords(text: string): Set<string> {
  return new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'.#@+-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? []).filter((w) => !FUNCTION_WORDS.has(w)),
  );
}

export interface TurnScore {
  turn: LabelledTurn;
  predicted: string[];
  wrong: string[];
  missed: string[];
}

export interface SetScore {
  predicted: number;
  correct: number;
  expected: number;
  found: number;
  precision: number;
  recall: number;
  turns: TurnScore[];
}

const share = (words: Set<string>, pool: Set<string>): number =>
  words.size === 0 ? 1 : [...words].filter((w) => pool.has(w)).length / words.size;

export function scoreSet(turns: readonly LabelledTurn[], extract: (turn: LabelledTurn) => string[]): SetScore {
  let predicted = 0;
  let correct = 0;
  let expected = 0;
  let found = 0;
  const scored: TurnScore[] = [];
  for (const turn of turns) {
    const claims = extract(turn);
    const expectedPool = new Set(turn.claims.flatMap((c) => [...contentWords(c)]));
    const predictedPool = new Set(claims.flatMap((c) => [...contentWords(c)]));
    const wrong = claims.filter((c) => share(contentWords(c), expectedPool) < 0.5);
    const missed = turn.claims.filter((c) => share(contentWords(c), predictedPool) < 0.6);
    predicted += claims.length;
    correct += claims.length - wrong.length;
    expected += turn.claims.length;
    found += turn.claims.length - missed.length;
    scored.push({ turn, predicted: claims, wrong, missed });
  }
  return {
    predicted,
    correct,
    expected,
    found,
    precision: predicted === 0 ? 1 : correct / predicted,
    recall: expected === 0 ? 1 : found / expected,
    turns: scored,
  };
}
