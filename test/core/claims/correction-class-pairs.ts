/**
 * Corrections of the classes the rules missed, written before the rules that handle them: a new holder
 * takes over a role; leaving one employer or team and joining another; stopping a state or diet and
 * adopting another; selling or replacing a possession; a result that reverses an earlier belief;
 * migrating off one tool or platform onto another. Each class has its compatible look-alikes, which must
 * not supersede (same people, things or verbs, a different fact).
 */
import type { ClaimPair } from './pairs.js';

/** Expected: supersedes. */
export const CLASS_CORRECTIONS: readonly ClaimPair[] = [
  // a new holder takes over a role
  { shape: 'role', old: 'Jonas is the release manager.', new: 'Priya took over as release manager.' },
  {
    shape: 'role',
    old: 'Kofi is the tech lead of the search team.',
    new: 'Kofi stepped down and Amara is the tech lead of the search team now.',
  },
  { shape: 'role', old: 'Kofi leads the search team.', new: 'Amara now leads the search team.' },
  { shape: 'role', old: 'Marco is the on-call lead.', new: 'Ingrid replaced Marco as on-call lead.' },
  { shape: 'role', old: 'Mateo is our engineering manager.', new: 'Sofia succeeded Mateo as engineering manager.' },
  // leaving one employer or team and joining another
  { shape: 'employer', old: 'Priya works at Spotify.', new: 'Priya left Spotify and joined Klarna.' },
  { shape: 'employer', old: 'The user works at Deloitte as a consultant.', new: 'The user quit Deloitte and now freelances.' },
  { shape: 'employer', old: 'Omar is on the growth team.', new: 'Omar left the growth team and joined the platform team.' },
  { shape: 'employer', old: 'I am on the payments team.', new: 'I moved from the payments team to the search team.' },
  { shape: 'employer', old: 'Dana works for Stripe.', new: 'Dana now works for Shopify.' },
  // stopping a state or diet and adopting another
  { shape: 'state', old: 'The user is vegetarian.', new: 'The user is no longer vegetarian; they are vegan now.' },
  { shape: 'state', old: 'The user drinks coffee every morning.', new: 'The user gave up coffee and drinks tea now.' },
  { shape: 'state', old: 'I follow a keto diet.', new: 'I stopped keto and eat a Mediterranean diet now.' },
  { shape: 'state', old: 'The user smokes.', new: 'The user quit smoking in January.' },
  { shape: 'state', old: 'Lea works part-time.', new: 'Lea is no longer part-time; she works full-time now.' },
  // selling or replacing a possession
  { shape: 'possession', old: 'I drive a 2018 Golf.', new: 'I sold my Golf and bought an e-bike.' },
  { shape: 'possession', old: 'The user drives a Prius.', new: 'The user traded in the Prius for a Model Y.' },
  { shape: 'possession', old: 'My laptop is a MacBook Pro.', new: 'I replaced my MacBook Pro with a ThinkPad.' },
  { shape: 'possession', old: 'I own an upright piano.', new: 'I sold the upright piano.' },
  { shape: 'possession', old: 'The office has a Gaggia espresso machine.', new: 'The office got rid of the Gaggia espresso machine.' },
  // a result that reverses an earlier belief
  {
    shape: 'reversal',
    old: 'The flaky test is caused by a race condition.',
    new: 'The flaky test was not a race condition after all; it was a timezone bug.',
  },
  {
    shape: 'reversal',
    old: 'The outage was caused by DNS.',
    new: 'It turned out the outage was caused by an expired certificate, not DNS.',
  },
  {
    shape: 'reversal',
    old: 'The memory leak is in the websocket handler.',
    new: 'The memory leak is in the image cache, not the websocket handler.',
  },
  { shape: 'reversal', old: 'Redis is the bottleneck.', new: 'Redis was not the bottleneck after all; the ORM was.' },
  { shape: 'reversal', old: 'The bug is in the parser.', new: 'The bug was not in the parser after all but in the tokenizer.' },
  // migrating off one tool or platform onto another
  { shape: 'migration', old: 'We host the app on Heroku.', new: 'We migrated off Heroku onto Fly.io.' },
  { shape: 'migration', old: 'We deploy with GitHub Actions.', new: 'We moved CI from GitHub Actions to Buildkite.' },
  { shape: 'migration', old: 'We use pnpm.', new: 'We switched to bun.' },
  { shape: 'migration', old: 'We use Jest for unit tests.', new: 'We dropped Jest in favour of Vitest.' },
  { shape: 'migration', old: 'The team tracks work in Jira.', new: 'The team moved off Jira onto Linear.' },
  { shape: 'migration', old: 'We run on AWS.', new: 'We left AWS for GCP.' },
];

/** Expected: anything but supersedes. */
export const CLASS_COMPATIBLE: readonly ClaimPair[] = [
  // roles
  { shape: 'role', old: 'Jonas is the release manager.', new: 'Priya took over the release notes.' },
  { shape: 'role', old: 'Kofi leads the search team.', new: 'Amara also leads the QA guild.' },
  { shape: 'role', old: 'Mateo is our engineering manager.', new: 'Sofia is the new design lead.' },
  { shape: 'role', old: 'Marco is the on-call lead.', new: 'Ingrid is on call this weekend.' },
  { shape: 'role', old: 'Kofi is the tech lead of the search team.', new: 'Kofi gave a talk about the search team.' },
  { shape: 'role', old: 'Jonas is the release manager.', new: 'Jonas replaced the release checklist with a script.' },
  // employers and teams
  { shape: 'employer', old: 'Priya works at Spotify.', new: 'Priya joined the book club.' },
  { shape: 'employer', old: 'Omar is on the growth team.', new: 'Omar left the office early today.' },
  { shape: 'employer', old: 'Dana works for Stripe.', new: "Dana visited Shopify's office." },
  { shape: 'employer', old: 'The user works at Deloitte as a consultant.', new: 'The user joined a climbing gym.' },
  { shape: 'employer', old: 'I am on the payments team.', new: 'I left the payments standup early.' },
  { shape: 'employer', old: 'Priya works at Spotify.', new: 'Priya left her laptop at the Spotify office.' },
  // states and diets
  { shape: 'state', old: 'The user is vegetarian.', new: 'The user stopped drinking soda.' },
  { shape: 'state', old: 'The user drinks coffee every morning.', new: 'The user gave up sugar.' },
  { shape: 'state', old: 'I run every morning.', new: 'I started swimming on Fridays.' },
  { shape: 'state', old: 'I follow a keto diet.', new: 'I stopped eating bread.' },
  { shape: 'state', old: 'Lea works part-time.', new: 'Lea is no longer on the hiring panel.' },
  { shape: 'state', old: 'The user smokes.', new: 'The user quit the gym.' },
  // possessions
  { shape: 'possession', old: 'I drive a 2018 Golf.', new: 'I sold my old bike.' },
  { shape: 'possession', old: 'My laptop is a MacBook Pro.', new: 'I bought a new monitor.' },
  { shape: 'possession', old: 'The office has a Gaggia espresso machine.', new: 'The office got a new fridge.' },
  { shape: 'possession', old: 'I own an upright piano.', new: 'I sold my old guitar amp.' },
  { shape: 'possession', old: 'The user drives a Prius.', new: "The user's wife traded in her Civic." },
  { shape: 'possession', old: 'My laptop is a MacBook Pro.', new: 'I replaced the battery of my MacBook Pro.' },
  // reversals
  { shape: 'reversal', old: 'The flaky test is caused by a race condition.', new: 'The timezone bug was fixed in 2.3.' },
  { shape: 'reversal', old: 'The outage was caused by an expired certificate.', new: 'The DNS provider is Cloudflare.' },
  { shape: 'reversal', old: 'The bug is in the parser.', new: 'The parser is written in Rust.' },
  { shape: 'reversal', old: 'Redis is the bottleneck.', new: 'The ORM was not the bottleneck.' },
  { shape: 'reversal', old: 'The memory leak is in the websocket handler.', new: 'The image cache was not leaking after all.' },
  // migrations and tools
  { shape: 'migration', old: 'We host the app on Heroku.', new: 'We migrated the blog from WordPress to Ghost.' },
  { shape: 'migration', old: 'We use pnpm.', new: 'We switched to Vitest.' },
  { shape: 'migration', old: 'We use Postgres.', new: 'We switched to bun.' },
  { shape: 'migration', old: 'We deploy with GitHub Actions.', new: 'We moved the docs to Notion.' },
  { shape: 'migration', old: 'We use Sentry for errors.', new: 'We moved to Fly.io.' },
  { shape: 'migration', old: 'The team tracks work in Jira.', new: 'The team moved standup to 10am.' },
  { shape: 'migration', old: 'We deploy with GitHub Actions.', new: 'We use Buildkite for the mobile builds.' },
  { shape: 'migration', old: 'We use Tailwind for styling.', new: 'We switched to Vite.' },
  { shape: 'migration', old: 'We run on AWS.', new: 'We left the AWS Slack community.' },
  { shape: 'migration', old: 'We use Jest for unit tests.', new: 'We switched to Playwright for end-to-end tests.' },
  { shape: 'migration', old: 'We use Postgres for the app database.', new: 'We migrated analytics off BigQuery onto ClickHouse.' },
  { shape: 'migration', old: 'We use Datadog for logs.', new: 'We switched error tracking to Honeybadger.' },
  { shape: 'migration', old: 'We use pnpm.', new: 'We use bun for scripts too.' },
  // unrelated statements near the classes
  { shape: 'mixed', old: 'Priya works at Spotify.', new: 'Klarna is hiring backend engineers.' },
  { shape: 'mixed', old: 'The user is vegetarian.', new: 'The user cooked a vegan lasagne for the party.' },
  { shape: 'mixed', old: 'I drive a 2018 Golf.', new: 'My brother drives a Model Y.' },
  { shape: 'mixed', old: 'We host the app on Heroku.', new: 'Heroku raised its prices.' },
  { shape: 'mixed', old: 'Mateo is our engineering manager.', new: 'Mateo took over the hiring pipeline.' },
  { shape: 'mixed', old: 'The outage was caused by DNS.', new: 'The second outage was caused by a bad deploy.' },
  { shape: 'mixed', old: 'We use Jest for unit tests.', new: 'Jest was slow on the old laptops.' },
  { shape: 'mixed', old: 'I follow a keto diet.', new: 'My partner follows a vegan diet.' },
];
