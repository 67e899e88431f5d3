/**
 * A secret's name spelled with look-alike letters (Cyrillic or Greek letters that look Latin,
 * full-width or mathematical letters, invisible characters inside) announces its value like the plain
 * name: the value goes, the name stays as written. Values are never folded, and Russian or Greek prose
 * is left alone.
 */
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../src/core/redact/index.js';

const redactor = createRedactor();

describe('secret names spelled with look-alike letters', () => {
  it.each([
    ['a Cyrillic а in password', 'p\u0430ssword: hunter2horse', 'p\u0430ssword: [redacted:password]'],
    ['Cyrillic р, а, о in password', '\u0440\u0430ssw\u043erd=hunter2horse', '\u0440\u0430ssw\u043erd=[redacted:password]'],
    ['Cyrillic capitals in a PAT name', 'GITHUB_\u0420\u0410\u0422=abcd1234efgh5678ijkl', 'GITHUB_\u0420\u0410\u0422=[redacted:token]'],
    ['Cyrillic ѕ and і', 'client_\u0455ecret: Hq7mZ2pLw9xx', 'client_\u0455ecret: [redacted:secret]'],
    ['a Greek τ and ο in token', '\u03c4\u03bfken: abcd1234efgh5678', '\u03c4\u03bfken: [redacted:token]'],
    ['a quoted JSON key', '"\u0430pi_k\u0435y": "Zx9abcd1234efgh5678ijkl"', '"\u0430pi_k\u0435y": "[redacted:api-key]"'],
    ['a flag', 'login --p\u0430ssword hunter2horse', 'login --p\u0430ssword [redacted:password]'],
    ['a password said in prose', 'my p\u0430ssword is hunter2horse', 'my p\u0430ssword is [redacted:password]'],
    ['full-width letters', '\uff30\uff21\uff34=abcd1234efgh5678ijkl', '\uff30\uff21\uff34=[redacted:token]'],
    ['a mathematical p with a Cyrillic а', '\u{1d429}\u0430ssword: hunter2horse', '\u{1d429}\u0430ssword: [redacted:password]'],
    ['a zero-width space and a Cyrillic о', 'pass\u200bw\u043erd: hunter2horse', 'pass\u200bw\u043erd: [redacted:password]'],
    ['a soft hyphen and a Cyrillic а', 'p\u0430ss\u00adword=hunter2horse', 'p\u0430ss\u00adword=[redacted:password]'],
  ])('%s', (_name, input, expected) => {
    const result = redactor.redact(input);
    expect(result.text).toBe(expected);
    expect(result.count).toBe(1);
  });

  it('does not fold a value: a look-alike spelling of "password" after a name is a secret, not a placeholder', () => {
    // folded, `pаsswоrd` would read as the placeholder word "password" and stay
    expect(redactor.redact('token: p\u0430ssw\u043erd').text).toBe('token: [redacted:token]');
    expect(redactor.redact('password: \u043f\u0430\u0440\u043e\u043b\u044c2024').text).toBe('password: [redacted:password]');
  });

  it.each([
    ['a name that is no secret name', 'c\u043eunt: abcd1234efgh5678ijkl'],
    ['a name about a secret', 'p\u0430ssword_hint: hunter2horse'],
    ['a look-alike word not before a separator', 'the p\u0430ssword policy changed on Monday'],
  ])('leaves %s', (_name, input) => {
    expect(redactor.redact(input)).toEqual({ text: input, count: 0, kinds: {} });
  });

  it.each([
    'Пароль от почты лучше спросить у Пети: он его знает.',
    'Сорок: сорок два года, а не тридцать.',
    'Рос: 2024 год был трудным для всех нас.',
    'Сорт кофе: арабика, обжарка средняя, 250 грамм.',
    'Ключ: под ковриком у двери, как обычно.',
    'Встреча в среду: обсудить план на квартал и бюджет 2025.',
    'Κατά τη διάρκεια της συνάντησης: όλα καλά, τίποτα νέο.',
    'ΚΑΙ: ΟΧΙ ΤΩΡΑ, ΑΡΓΟΤΕΡΑ.',
  ])('leaves Russian and Greek prose alone: %s', (input) => {
    expect(redactor.redact(input)).toEqual({ text: input, count: 0, kinds: {} });
  });
});
