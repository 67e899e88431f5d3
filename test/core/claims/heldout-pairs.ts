/**
 * Held-out sanity check, written after tuning was finished and run once: not used to tune anything.
 * Fifteen corrections and fifteen compatible pairs in new wordings, spread over the statement shapes.
 */
import type { ClaimPair } from './pairs.js';

/** Expected: supersedes. */
export const HELDOUT_CORRECTIONS: readonly ClaimPair[] = [
  { shape: 'is', old: 'The staging environment uses a t3.medium instance.', new: 'We resized the staging instance to a t3.large.' },
  { shape: 'possessive', old: "Maria's team lead is Jonas.", new: "Maria's team lead is now Priscilla." },
  { shape: 'correction', old: "The user's shirt size is M.", new: "Correction: the user's shirt size is L." },
  { shape: 'schedule', old: 'The weekly newsletter goes out on Mondays.', new: 'The weekly newsletter now goes out on Wednesdays.' },
  {
    shape: 'ownership',
    old: 'The on-prem cluster is maintained by the ops team.',
    new: 'The cloud team took over maintenance of the on-prem cluster.',
  },
  { shape: 'actually', old: "The user's partner is called Sam.", new: "Actually, the user's partner is called Alex." },
  {
    shape: 'from-to',
    old: 'We store user uploads in Google Cloud Storage.',
    new: 'User uploads were migrated from Google Cloud Storage to S3.',
  },
  { shape: 'schedule', old: 'The hackathon is on October 3.', new: 'The hackathon was postponed to October 17.', numeric: true },
  { shape: 'preference', old: 'The user prefers Celsius.', new: 'The user switched to Fahrenheit.' },
  {
    shape: 'number',
    old: "The mobile app's minimum Android version is 8.",
    new: 'The minimum Android version for the mobile app is now 10.',
    numeric: true,
  },
  { shape: 'location', old: 'Leo lives in Manchester.', new: 'Leo relocated to Glasgow in the spring.' },
  {
    shape: 'no-longer',
    old: 'The support rotation is handled by the backend team.',
    new: 'The support rotation is no longer handled by the backend team.',
  },
  { shape: 'name', old: 'The product is called Beacon.', new: 'Beacon was renamed to Lighthouse.' },
  { shape: 'replaced', old: 'Our code formatter is Prettier.', new: 'We replaced Prettier with Biome.' },
  { shape: 'is', old: 'The user drives a Honda Civic.', new: 'The user sold the Civic and now drives a Tesla Model 3.' },
];

/** Expected: anything but supersedes. */
export const HELDOUT_COMPATIBLE: readonly ClaimPair[] = [
  { shape: 'is', old: 'The staging environment uses a t3.medium instance.', new: 'The production environment uses an m5.xlarge instance.' },
  { shape: 'ownership', old: "Maria's team lead is Jonas.", new: 'Jonas also leads the QA team.' },
  { shape: 'possessive', old: "The user's shirt size is M.", new: "The user's shoe size is 42.", numeric: true },
  { shape: 'schedule', old: 'The weekly newsletter goes out on Mondays.', new: 'The monthly digest goes out on the first Friday.' },
  { shape: 'ownership', old: 'The on-prem cluster is maintained by the ops team.', new: 'The ops team also maintains the backup tapes.' },
  { shape: 'name', old: "The user's partner is called Sam.", new: "The user's brother is called Alex." },
  { shape: 'location', old: 'We store user uploads in Google Cloud Storage.', new: 'We store audit logs in BigQuery.' },
  {
    shape: 'schedule',
    old: 'The hackathon is on October 3.',
    new: 'Registration for the hackathon closes on September 20.',
    numeric: true,
  },
  { shape: 'preference', old: 'The user prefers Celsius.', new: 'The user prefers 24-hour time.' },
  { shape: 'location', old: 'Leo lives in Manchester.', new: 'Leo works in Leeds two days a week.' },
  { shape: 'name', old: 'The product is called Beacon.', new: "The product's mascot is called Bolt." },
  { shape: 'is', old: 'Our code formatter is Prettier.', new: 'Our linter is ESLint.' },
  { shape: 'is', old: 'The user drives a Honda Civic.', new: "The user's wife drives a Toyota." },
  {
    shape: 'ownership',
    old: 'The support rotation is handled by the backend team.',
    new: 'The backend team is also responsible for the status page.',
  },
  { shape: 'number', old: 'The API gateway runs on Kong.', new: 'The API gateway has 4 replicas in production.', numeric: true },
];
