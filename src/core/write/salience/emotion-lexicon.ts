/**
 * A compact AFINN-style sentiment lexicon (scores -5..5) for chat, agent observations and work
 * incidents, with small mood-category lists, emoji and emoticons. Written for Engram; words are matched
 * exactly or through their Porter stem (so "loved", "loving" find "love"), except entries marked `=`,
 * which match only as written because their stem collides with a neutral word ("helpful" → "help").
 */
import { stem } from '../../text/stem.js';
import { dictionary } from '../../text/dictionary.js';

const SCORED_WORDS = `
adore:3 amazing:4 awesome:4 brilliant:4 ecstatic:4 elated:4 excellent:4 exceptional:4 fabulous:4 fantastic:4
glorious:4 incredible:4 magnificent:4 marvelous:4 marvellous:4 outstanding:4 overjoyed:4 spectacular:4
superb:4 terrific:4 thrilled:4 wonderful=:4 perfect:3 perfectly:3 best:3
beautiful:3 blessed:3 celebrate:3 cherish:3 congrats:3 congratulations:3 delicious:3 delighted:3 excited:3
gorgeous:3 grateful:3 great:3 happy:3 hooray:3 impressive:3 impressed:3 joy:3 joyful:3 love:3 lovely:3
proud:3 thankful:3 triumph:3 victory:3 win:3 won:3 woohoo:3 yay:3 happiness:3
accepted:2 accomplished:2 achievement:2 appreciate:2 approved:2 benefit:2 better:2 calm:2 cheerful:2 comfortable:2
confident:2 cozy:2 cute:2 eager:2 efficient:2 elegant:2 enjoy:2 favorite:2 favourite:2 fortunate:2 friendly:2
fun:2 funny:2 glad:2 good:2 healed:2 healthy:2 helpful=:2 hopeful:2 improvement:2 improved:2 inspiring:2
kind:2 kindness:2 laugh:2 lucky:2 motivated:2 nice:2 optimistic:2 peaceful:2 pleased=:2 pleasant:2 powerful=:2
pride:2 promoted:2 recommend:2 recovered:2 relaxed:2 relief:2 relieved:2 reliable:2 satisfied:2 satisfaction:2
smile:2 smoothly:2 solved:2 resolved:2 succeed:2 success:2 successfully:2 sweet:2 thanks:2 thank:2 useful=:2
valuable:2 fixed=:2 interesting=:2 wow:1
agree:1 clean:1 cool:1 curious:1 easy:1 fast:1 faster:1 fine=:1 helped=:1 hope:1 interested=:1 launched=:1
passed=:1 resolution:1 safe:1 secure=:1 shipped=:1 smooth:1 stable:1 teamwork:1 trust:1 welcome:1 worth:1
problem:-1 incident:-1 bug:-1 bugs:-1 slow:-1 late=:-1 lost=:-1 miss:-1 missed:-1 sorry:-1 apologize:-1
awkward:-1 blocked=:-1 denied:-1 difficult:-1 fault:-1 risk:-1 rollback:-1 tired=:-1 weak:-1 argument:-1
unclear:-1 warning:-1 delay:-1 delayed:-1 confused:-1
afraid:-2 angry:-2 annoyed:-2 annoying:-2 anxious:-2 ashamed:-2 attack:-2 bad:-2 blame:-2 bored:-2 boring:-2
broke=:-2 broken:-2 complain:-2 confusing:-2 crap:-2 crash:-2 crashed:-2 cry:-2 cried:-2 damn:-2 danger:-2
dangerous:-2 disappointed:-2 disappointing:-2 dread:-2 dumb:-2 embarrassed:-2 emergency:-2 error:-2 errors:-2
exhausted:-2 fail:-2 failed:-2 failure:-2 fear:-2 fight:-2 flaky:-2 frustrated:-2 frustrating:-2 frustration:-2
guilty:-2 hostile:-2 hurt:-2 ill:-2 injured:-2 injury:-2 jealous:-2 leak:-2 lonely:-2
lose:-2 loss:-2 mistake:-2 nasty:-2 nervous:-2 outage:-2 pain:-2 painful:-2 poor:-2 regressed=:-2 rejected:-2
ridiculous:-2 rude:-2 ruin:-2 ruined:-2 sad:-2 sadly:-2 scared:-2 scary:-2 sick:-2 stressed:-2 stress:-2
struggle:-2 stuck:-2 stupid:-2 suffer:-2 tears:-2 threat:-2 toxic:-2 ugh:-2 argh:-2 ugly:-2 unfair:-2
unfortunately:-2 unhappy:-2 unreliable:-2 upset:-2 useless:-2 vulnerability:-2 war:-2 worried:-2 worry:-2
wrong:-2 worthless:-2 accident:-2 unstable:-2 anger:-2
awful:-3 corrupted:-3 dead=:-2 death:-3 depressed:-3 devastated:-3 died:-3 disaster:-3 disgusting:-3
furious:-3 grief:-3 hate:-3 heartbroken:-3 hopeless:-3 horrible:-3 miserable:-3 mourn:-3
nightmare:-3 outraged:-3 panic:-3 pathetic:-3 sorrow:-3 sucks:-3 terrible:-3 terrified:-3 tragic:-3 worst:-3
wtf:-3 catastrophe:-4 catastrophic:-4 abysmal:-4
`;

/** Mood categories; `=` marks a word matched only as written. */
const MOOD_WORDS: Readonly<Record<string, string>> = dictionary({
  joy: 'happy happiness joy joyful glad delighted love lovely wonderful= fun enjoy laugh smile cheerful pleased= yay hooray great beautiful delicious',
  sadness:
    'sad unhappy depressed cry cried tears lonely grief miss missed died death dead heartbroken miserable sorrow mourn disappointed hopeless loss lost devastated',
  anger: 'angry furious mad annoyed hate rage outraged pissed irritated hostile resent anger wtf damn rude',
  fear: 'afraid scared worried worry anxious nervous terrified panic fear dread frightened uneasy concerned scary danger dangerous threat',
  surprise: 'surprised surprise shocked unexpected wow amazed astonished stunned unbelievable whoa suddenly',
  trust: 'trust trusted reliable confident honest faithful safe rely loyal',
  frustration:
    'frustrated frustrating frustration annoying stuck ugh argh flaky broken broke useless confusing slow tired= exhausted struggle',
  excitement: 'excited thrilled pumped stoked awesome woohoo eager ecstatic amazing fantastic',
  gratitude: 'thanks thank grateful thankful appreciate',
  pride: 'proud pride accomplished achievement won win victory triumph promoted',
  calm: 'relaxed calm peaceful serene relief relieved cozy comfortable',
  disgust: 'disgusting nasty revolting',
});

/** Negators flip and halve the score of a sentiment word in the next three tokens. */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'cannot',
  'without',
  'nobody',
  'nothing',
  'none',
  'neither',
  'nor',
  'nowhere',
  'hardly',
  'lack',
]);

/** Boosters multiply the next sentiment word (within two tokens); dampeners shrink it. */
export const BOOSTERS: Readonly<Record<string, number>> = dictionary({
  very: 1.5,
  really: 1.5,
  so: 1.4,
  extremely: 1.8,
  super: 1.6,
  incredibly: 1.8,
  totally: 1.5,
  absolutely: 1.7,
  completely: 1.6,
  utterly: 1.8,
  truly: 1.5,
  deeply: 1.6,
  highly: 1.5,
  especially: 1.4,
  exceptionally: 1.7,
  remarkably: 1.5,
  huge: 1.5,
  hugely: 1.6,
  insanely: 1.8,
  seriously: 1.5,
  most: 1.3,
  such: 1.3,
  quite: 1.2,
  too: 1.2,
  way: 1.3,
  all: 1.1,
  still: 1.1,
  slightly: 0.5,
  somewhat: 0.6,
  kinda: 0.5,
  sorta: 0.5,
  barely: 0.4,
  fairly: 0.7,
  mildly: 0.5,
  partly: 0.6,
  rather: 0.8,
  little: 0.6,
});

/** Multi-word expressions rewritten before scoring. */
export const PHRASES: readonly (readonly [RegExp, string])[] = [
  [/\bpass(?:ed|es)? away\b/g, 'died'],
  [/\b(?:can't|cannot|can not) wait\b/g, 'excited'],
  [/\bfed up\b/g, 'frustrated'],
  [/\blet (?:me |us |them |him |her )?down\b/g, 'disappointed'],
  [/\bwell done\b/g, 'great'],
  [/\b(?:go|goes|going|went|gone) (?:very |really |so )?well\b/g, 'good'],
  [/\bmeans? (?:a lot|so much)\b/g, 'grateful'],
  [/\bno (?:problem|worries)\b/g, ' '],
  [/\b(?:kind of|sort of|a bit|a little)\b/g, 'kinda'],
  [/\bthank you\b/g, 'thanks'],
  [/\bnot only\b/g, ' '],
  [/\b(?:out of order|fell apart|falls apart)\b/g, 'broken'],
  [/\blike a charm\b/g, 'perfectly'],
];

/** Emoji and emoticons (lowercased): score and mood. */
export const EMOTICONS: Readonly<Record<string, readonly [score: number, mood: string]>> = dictionary({
  ':)': [2, 'joy'],
  ':-)': [2, 'joy'],
  '=)': [2, 'joy'],
  ':]': [2, 'joy'],
  ':d': [3, 'joy'],
  ':-d': [3, 'joy'],
  xd: [2, 'joy'],
  ';)': [1, 'joy'],
  ';-)': [1, 'joy'],
  ':p': [1, 'joy'],
  ':-p': [1, 'joy'],
  '<3': [3, 'joy'],
  ':(': [-2, 'sadness'],
  ':-(': [-2, 'sadness'],
  ":'(": [-3, 'sadness'],
  ':[': [-2, 'sadness'],
  '=(': [-2, 'sadness'],
  ':o': [0, 'surprise'],
  ':-o': [0, 'surprise'],
  ':|': [-1, 'frustration'],
  '</3': [-3, 'sadness'],
  '😀': [2, 'joy'],
  '😃': [2, 'joy'],
  '😄': [3, 'joy'],
  '😁': [3, 'joy'],
  '😆': [2, 'joy'],
  '😊': [2, 'joy'],
  '🙂': [1, 'joy'],
  '😍': [3, 'joy'],
  '🥰': [3, 'joy'],
  '😘': [2, 'joy'],
  '😎': [2, 'joy'],
  '😂': [2, 'joy'],
  '🤣': [2, 'joy'],
  '❤': [3, 'joy'],
  '♥': [3, 'joy'],
  '💕': [3, 'joy'],
  '💖': [3, 'joy'],
  '✨': [1, 'joy'],
  '🤩': [3, 'excitement'],
  '🥳': [3, 'excitement'],
  '🎉': [3, 'excitement'],
  '🔥': [2, 'excitement'],
  '👍': [2, 'trust'],
  '👏': [2, 'pride'],
  '💪': [2, 'pride'],
  '🙌': [2, 'joy'],
  '💯': [2, 'excitement'],
  '✅': [1, 'trust'],
  '🙏': [2, 'gratitude'],
  '😌': [2, 'calm'],
  '😢': [-2, 'sadness'],
  '😭': [-3, 'sadness'],
  '😞': [-2, 'sadness'],
  '😔': [-2, 'sadness'],
  '😟': [-2, 'fear'],
  '😕': [-1, 'frustration'],
  '🙁': [-2, 'sadness'],
  '☹': [-2, 'sadness'],
  '😣': [-2, 'frustration'],
  '😖': [-2, 'frustration'],
  '😫': [-2, 'frustration'],
  '😩': [-2, 'frustration'],
  '😤': [-2, 'frustration'],
  '😠': [-3, 'anger'],
  '😡': [-3, 'anger'],
  '🤬': [-4, 'anger'],
  '💔': [-3, 'sadness'],
  '👎': [-2, 'frustration'],
  '😱': [-2, 'fear'],
  '😨': [-2, 'fear'],
  '😰': [-2, 'fear'],
  '😥': [-2, 'sadness'],
  '😓': [-1, 'frustration'],
  '🤢': [-2, 'disgust'],
  '🤮': [-3, 'disgust'],
  '😒': [-1, 'frustration'],
  '🙄': [-1, 'frustration'],
  '❌': [-1, 'frustration'],
  '⚠': [-1, 'fear'],
  '😮': [0, 'surprise'],
  '😯': [0, 'surprise'],
  '😲': [0, 'surprise'],
  '🤯': [0, 'surprise'],
  '😳': [0, 'surprise'],
});

/** The tables above, indexed for lookup. */
export interface EmotionTables {
  exact: ReadonlyMap<string, number>;
  stemmed: ReadonlyMap<string, number>;
  moodExact: ReadonlyMap<string, string>;
  moodStemmed: ReadonlyMap<string, string>;
}

let tables: EmotionTables | undefined;

/** The lexicon indexed by word and by Porter stem, built on first use. */
export function emotionTables(): EmotionTables {
  if (tables !== undefined) return tables;
  const exact = new Map<string, number>();
  const stemmed = new Map<string, number>();
  for (const entry of SCORED_WORDS.split(/\s+/u)) {
    const match = /^([^:=]+)(=?):(-?\d)$/u.exec(entry);
    if (match === null) continue;
    const [, word = '', exactOnly, score = '0'] = match;
    exact.set(word, Number(score));
    if (exactOnly === '' && !stemmed.has(stem(word))) stemmed.set(stem(word), Number(score));
  }
  const moodExact = new Map<string, string>();
  const moodStemmed = new Map<string, string>();
  for (const [mood, words] of Object.entries(MOOD_WORDS)) {
    for (const entry of words.split(' ')) {
      const word = entry.replace(/=$/u, '');
      if (!moodExact.has(word)) moodExact.set(word, mood);
      if (word === entry && !moodStemmed.has(stem(word))) moodStemmed.set(stem(word), mood);
    }
  }
  tables = { exact, stemmed, moodExact, moodStemmed };
  return tables;
}
