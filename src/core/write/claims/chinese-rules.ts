/**
 * Chinese statement shapes for the common slots, read into the same slot model as English so that a
 * Chinese correction supersedes a Chinese statement: where someone lives (住在 / 在…住 / 搬到 / 搬去),
 * where they work (在…工作 / 上班, 跳槽到), what they do (当 / 做), and a possessed attribute ("我的预算是
 * 80万", "预算改成100万了"). Change verbs (搬到, 改成, 换成, 变成, 现在是) mark a change as "moved to" does;
 * 不再 / 不…了 negate. Chinese and English statements are not compared with each other (no translation).
 */
import type { Rule } from './rule-types.js';

/** Who a Chinese clause is about: the speaker, the speaking group, or a short name or noun. */
const WHO = '(我们|咱们|我|[\\p{Script=Han}A-Za-z]{1,8}?)';
/** Adverbs of now and already that carry no slot. */
const NOW = '(?:现在|目前|如今|已经|刚|刚刚)?';
/** The value: what is left of the clause. */
const VALUE = '(\\S+?)';

/** 我 is the user speaking, 我们 the scope itself; anyone else is named. */
function chineseSubject(who: string): string {
  if (who === '我' || who === '') return 'I';
  if (who === '我们' || who === '咱们') return 'we';
  return who;
}

/** The rules, most specific first: changes and negations before plain statements. */
export const CHINESE_RULES: readonly Rule[] = [
  {
    name: 'zh-moved-to',
    examples: [{ text: '我搬到上海了。', slot: { subject: 'user', attribute: 'location', value: '上海' } }],
    re: new RegExp(`^${WHO}${NOW}(?:搬到|搬去|搬进|搬来|迁到|移居到?)${VALUE}(?:住|居住|生活)?$`, 'u'),
    build: ([, who = '', place = '']) => [
      { subject: chineseSubject(who), family: 'location', value: place, change: true, cardinality: 'single', rule: 'zh-moved-to' },
    ],
  },
  {
    name: 'zh-no-longer-lives',
    examples: [{ text: '我不再住在北京了', slot: { subject: 'user', attribute: 'location', value: '北京', negated: true } }],
    re: new RegExp(`^${WHO}(?:不再|已经不|不)(?:住在|在(?=\\S+?住$))${VALUE}(?:住)?$`, 'u'),
    build: ([, who = '', place = '']) => [
      { subject: chineseSubject(who), family: 'location', value: place, negated: true, cardinality: 'single', rule: 'zh-no-longer-lives' },
    ],
  },
  {
    name: 'zh-lives-in',
    examples: [
      { text: '我住在北京。', slot: { subject: 'user', attribute: 'location', value: '北京' } },
      { text: '我现在在上海住', slot: { subject: 'user', attribute: 'location', value: '上海' } },
    ],
    re: new RegExp(`^${WHO}${NOW}(?:住在|居住在|生活在|在(?=\\S+?住$))${VALUE}(?:住)?$`, 'u'),
    build: ([, who = '', place = '']) => [
      { subject: chineseSubject(who), family: 'location', value: place, cardinality: 'single', rule: 'zh-lives-in' },
    ],
  },
  {
    name: 'zh-changed-job',
    examples: [{ text: '我跳槽到腾讯了', slot: { subject: 'user', attribute: 'workplace', value: '腾讯' } }],
    re: new RegExp(`^${WHO}${NOW}(?:跳槽到|跳槽去|换到|转到|调到)${VALUE}(?:上班|工作)?$`, 'u'),
    build: ([, who = '', place = '']) => [
      { subject: chineseSubject(who), family: 'workplace', value: place, change: true, cardinality: 'single', rule: 'zh-changed-job' },
    ],
  },
  {
    name: 'zh-works-at',
    examples: [
      { text: '我在谷歌工作', slot: { subject: 'user', attribute: 'workplace', value: '谷歌' } },
      { text: '我不在谷歌上班了', slot: { subject: 'user', attribute: 'workplace', value: '谷歌', negated: true } },
    ],
    re: new RegExp(`^${WHO}${NOW}(不再|不)?在${VALUE}(?:上班|工作)$`, 'u'),
    build: ([, who = '', negation = '', place = '']) => [
      {
        subject: chineseSubject(who),
        family: 'workplace',
        value: place,
        negated: negation !== '',
        cardinality: 'single',
        rule: 'zh-works-at',
      },
    ],
  },
  {
    name: 'zh-works-as',
    examples: [{ text: '我现在当老师', slot: { subject: 'user', attribute: 'role', value: '老师' } }],
    re: new RegExp(`^${WHO}${NOW}(不再|不)?(?:当|做|担任)${VALUE}$`, 'u'),
    build: ([, who = '', negation = '', role = '']) => [
      { subject: chineseSubject(who), family: 'role', value: role, negated: negation !== '', cardinality: 'single', rule: 'zh-works-as' },
    ],
  },
  {
    name: 'zh-attribute-changed',
    examples: [{ text: '预算改成100万了', slot: { subject: '', attribute: '预算', value: '100万' } }],
    re: new RegExp(
      `^(?:${WHO}的)?([\\p{Script=Han}A-Za-z ]{1,12}?)(?:已经)?(?:改成|换成|变成|改为|变为|调成|调到|涨到|降到|现在是|现在为)了?${VALUE}$`,
      'u',
    ),
    build: ([, who = '', attribute = '', value = '']) => [
      { subject: attributeOwner(who), family: attribute.trim(), value, change: true, cardinality: 'single', rule: 'zh-attribute-changed' },
    ],
  },
  {
    name: 'zh-attribute',
    examples: [
      { text: '我的预算是80万', slot: { subject: '', attribute: '预算', value: '80万' } },
      { text: '张伟的经理是李娜', slot: { subject: '张伟', attribute: '经理', value: '李娜' } },
    ],
    re: new RegExp(`^(?:${WHO}的)?([\\p{Script=Han}A-Za-z ]{1,12}?)(?:是|为)${VALUE}$`, 'u'),
    build: ([, who = '', attribute = '', value = '']) =>
      // "我是程序员" has no attribute before 是: a bare 是 after the speaker is no possessed attribute
      who === '' && /^(?:我|我们|你|他|她|他们|这|那)$/u.test(attribute)
        ? undefined
        : [{ subject: attributeOwner(who), family: attribute.trim(), value, cardinality: 'single', rule: 'zh-attribute' }],
  },
];

/** "我的预算" is the user's budget, written as English "my budget" is: owned by nobody named (""). */
function attributeOwner(who: string): string {
  return who === '' || who === '我' || who === '我们' || who === '咱们' ? '' : who;
}

/** Particles and punctuation that end a Chinese clause without adding to it: "我搬到上海了。" → "我搬到上海". */
export function trimChineseClause(clause: string): string {
  return clause.replace(/[\s。！？!?.，,；;~～]+$/u, '').replace(/(?:了|啦|的|呢|吧|啊|呀)+$/u, '');
}
