import { test } from 'vitest';
import { analyseClaim } from '../../../src/core/write/claims/claim-extractor.js';
test('dbg', () => {
  for (const c of ['We no longer self-host GitLab; we moved to GitLab.com.', 'We host our own GitLab.', 'We now ship releases weekly.', 'We ship releases every two weeks.']) console.log(c, JSON.stringify(analyseClaim(c).slots.map(s=>[s.subject,s.attribute,s.value,s.negated,s.rule])));
});
