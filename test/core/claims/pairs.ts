/**
 * Development pair set for claim comparison (supersession / agreement / compatibility).
 *
 * Written BEFORE the extractor and comparator, and not edited to fit them afterwards:
 * a pair that fails is a weakness to report, not a sentence to rephrase.
 *
 * `shape` names the statement shape a pair exercises, so failures can be grouped.
 * `numeric` marks pairs whose difference is carried by a number or a date
 * (at most a third of the corrections, so the set is not a number-change test).
 */

export interface ClaimPair {
  /** The existing, current claim. */
  old: string;
  /** The incoming claim. */
  new: string;
  shape: string;
  numeric?: boolean;
}

/** The new claim corrects or replaces the old one: expected relation `supersedes`. */
export const CORRECTION_PAIRS: readonly ClaimPair[] = [
  // "X is Y"
  { shape: 'is', old: 'The deploy target is staging.', new: 'The deploy target moved from staging to production.' },
  { shape: 'is', old: 'The primary database is PostgreSQL.', new: 'The primary database is now MySQL.' },
  { shape: 'is', old: 'The default branch is master.', new: 'The default branch is main.' },
  { shape: 'is', old: 'The API base URL is https://api.old.example.com.', new: 'The API base URL is https://api.example.com now.' },
  { shape: 'is', old: 'Oscar is the release manager.', new: 'Oscar is not the release manager anymore; Pat is.' },

  // possessive / "the A of X"
  { shape: 'possessive', old: "Bob's email address is bob@oldmail.com.", new: "Bob's email is now bob.smith@example.com." },
  { shape: 'possessive', old: "The project's code name is Falcon.", new: 'The code name of the project is Osprey.' },
  { shape: 'possessive', old: "Carol's manager is Dave.", new: "Carol's manager is now Erin." },
  {
    shape: 'possessive',
    old: 'The logging level of the auth service is debug.',
    new: "The auth service's logging level was changed to warn.",
  },
  { shape: 'possessive', old: "Alice's role is backend engineer.", new: "Alice's role changed to engineering manager." },

  // moved / switched / changed / migrated from A to B
  { shape: 'from-to', old: 'The frontend is built with webpack.', new: 'The frontend switched from webpack to Vite.' },
  { shape: 'from-to', old: 'Our message queue is RabbitMQ.', new: 'We migrated the message queue from RabbitMQ to Kafka.' },
  {
    shape: 'from-to',
    old: "The user's preferred language is Python.",
    new: 'The user changed their preferred language from Python to Rust.',
  },
  { shape: 'from-to', old: 'Search runs on Elasticsearch.', new: 'Search moved from Elasticsearch to OpenSearch.' },
  { shape: 'from-to', old: 'We host the docs on Netlify.', new: 'We moved the docs hosting from Netlify to Cloudflare Pages.' },

  // replaced
  { shape: 'replaced', old: 'We use Moment.js for date handling.', new: 'We replaced Moment.js with date-fns.' },
  { shape: 'replaced', old: 'The team tracks issues in Jira.', new: "Linear replaced Jira as the team's issue tracker." },
  { shape: 'replaced', old: 'Authentication is handled by Auth0.', new: 'Auth0 was replaced by Keycloak for authentication.' },
  { shape: 'replaced', old: 'The payments API uses API keys for auth.', new: 'The payments API uses OAuth instead of API keys.' },

  // no longer / not anymore
  { shape: 'no-longer', old: 'Dana works on the mobile team.', new: 'Dana no longer works on the mobile team.' },
  {
    shape: 'no-longer',
    old: 'The nightly backup job runs on the old NAS.',
    new: 'The nightly backup job no longer runs on the old NAS; it writes to S3 now.',
  },
  { shape: 'no-longer', old: 'The user is vegetarian.', new: 'The user is not vegetarian anymore.' },
  { shape: 'no-longer', old: 'The user drinks coffee every morning.', new: 'The user no longer drinks coffee.' },
  { shape: 'no-longer', old: 'The legacy reports endpoint is enabled.', new: 'The legacy reports endpoint has been disabled.' },

  // correction:
  { shape: 'correction', old: 'The staging cluster is in us-east-1.', new: 'Correction: the staging cluster is in eu-west-1.' },
  {
    shape: 'correction',
    old: "Frank's birthday is on March 3.",
    new: "Correction: Frank's birthday is March 13, not March 3.",
    numeric: true,
  },
  { shape: 'correction', old: 'The design review is owned by Grace.', new: 'Correction — the design review is owned by Heidi.' },
  { shape: 'correction', old: "The user's name is Sam.", new: "Correction: the user's name is Samira." },

  // actually,
  { shape: 'actually', old: "The user's cat is named Miso.", new: "Actually, the user's cat is called Mochi." },
  { shape: 'actually', old: 'The launch is planned for Q3.', new: 'Actually the launch is planned for Q4.', numeric: true },
  { shape: 'actually', old: 'Ivan prefers tabs.', new: 'Actually, Ivan prefers spaces.' },

  // ownership
  {
    shape: 'ownership',
    old: 'The billing service is owned by the payments team.',
    new: 'Ownership of the billing service was transferred to the platform team.',
  },
  { shape: 'ownership', old: 'The data team owns the ETL pipeline.', new: 'The ETL pipeline is now owned by the analytics team.' },
  { shape: 'ownership', old: 'The search index is maintained by Judy.', new: 'Kevin now maintains the search index.' },
  { shape: 'ownership', old: 'The infra team is responsible for the VPN.', new: 'The security team took over responsibility for the VPN.' },

  // location
  { shape: 'location', old: 'Alice lives in Berlin.', new: 'Alice moved to Lisbon.' },
  { shape: 'location', old: 'The company is headquartered in Austin.', new: 'The company is now based in Denver.' },
  { shape: 'location', old: 'Mallory is based in London.', new: 'Mallory relocated to Dublin last month.' },
  { shape: 'location', old: 'The build artifacts are stored in Artifactory.', new: 'Build artifacts are now stored in GitHub Packages.' },

  // preference
  { shape: 'preference', old: "Bob's favourite colour is blue.", new: "Bob's favourite colour is green now." },
  { shape: 'preference', old: 'The user prefers dark mode.', new: 'The user now prefers light mode.' },
  { shape: 'preference', old: 'Nina drinks her coffee black.', new: 'Nina drinks her coffee with oat milk now.' },
  { shape: 'preference', old: 'The user prefers email notifications.', new: 'The user prefers Slack notifications instead of email.' },

  // decision
  {
    shape: 'decision',
    old: 'We decided to use MongoDB for the session store.',
    new: 'We decided to use Redis for the session store instead of MongoDB.',
  },
  { shape: 'decision', old: 'We will use REST for the public API.', new: 'We will use GraphQL for the public API.' },
  {
    shape: 'decision',
    old: 'The team chose Terraform for infrastructure.',
    new: 'The team switched infrastructure tooling from Terraform to Pulumi.',
  },

  // schedule
  { shape: 'schedule', old: 'The weekly sync is on Tuesday.', new: 'The weekly sync was moved to Thursday.' },
  { shape: 'schedule', old: 'The sprint demo is at 3pm on Friday.', new: 'The sprint demo is now at 11am on Friday.', numeric: true },
  { shape: 'schedule', old: 'The release is scheduled for June 12.', new: 'The release was pushed to June 19.', numeric: true },
  { shape: 'schedule', old: 'The offsite is on 14 May 2026.', new: 'The offsite has been rescheduled to 21 May 2026.', numeric: true },

  // names
  {
    shape: 'name',
    old: 'The Slack channel for incidents is called #ops-alerts.',
    new: 'The incidents Slack channel was renamed to #incidents.',
  },
  { shape: 'name', old: 'The internal wiki is called Atlas.', new: 'The internal wiki was renamed to Compass.' },
  { shape: 'name', old: "The dog's name is Rex.", new: 'The dog is called Biscuit.' },

  // counts / numbers
  { shape: 'number', old: 'The monthly budget is 80L.', new: 'The monthly budget is now 120L.', numeric: true },
  {
    shape: 'number',
    old: 'The API rate limit is 100 requests per minute.',
    new: 'The API rate limit was raised to 500 requests per minute.',
    numeric: true,
  },
  { shape: 'number', old: 'The team has 6 engineers.', new: 'The team now has 9 engineers.', numeric: true },
  {
    shape: 'number',
    old: 'Max connection pool size is 20.',
    new: 'The max connection pool size was changed from 20 to 50.',
    numeric: true,
  },
  { shape: 'number', old: "The user's budget for the laptop is $1500.", new: "The user's laptop budget went up to $2000.", numeric: true },
  { shape: 'number', old: 'The project runs on Node 18.', new: 'The project now runs on Node 20.', numeric: true },
];

/** Both claims stay true: expected relation anything but `supersedes`. */
export const COMPATIBLE_PAIRS: readonly ClaimPair[] = [
  // additive ownership / membership
  {
    shape: 'ownership',
    old: 'The billing service is owned by the payments team.',
    new: 'The payments team also owns the refunds service.',
  },
  { shape: 'ownership', old: 'The infra team owns the VPN.', new: 'The infra team owns the CI runners as well.' },
  { shape: 'ownership', old: 'Kevin maintains the search index.', new: 'Kevin also maintains the recommendations model.' },
  {
    shape: 'ownership',
    old: 'The refunds service is owned by the payments team.',
    new: 'The billing service is owned by the platform team.',
  },
  { shape: 'ownership', old: 'The ETL pipeline is owned by the analytics team.', new: 'The analytics team is led by Ruth.' },
  { shape: 'ownership', old: 'Grace owns the design review process.', new: 'Grace reports to Heidi.' },

  // location vs other relations to places
  { shape: 'location', old: 'Alice lives in Berlin.', new: 'Alice works in Munich.' },
  { shape: 'location', old: 'The company is headquartered in Austin.', new: 'The company has a satellite office in Toronto.' },
  { shape: 'location', old: 'The user lives in Lisbon.', new: "The user's parents live in Porto." },
  { shape: 'location', old: 'Mallory is based in Dublin.', new: 'Mallory travels to London every other week.' },
  { shape: 'location', old: 'The staging cluster is in eu-west-1.', new: 'The production cluster is in us-east-1.' },

  // different subject, same attribute
  { shape: 'preference', old: "Bob's favourite colour is blue.", new: "Carol's favourite colour is red." },
  { shape: 'number', old: 'The monthly budget is 80L.', new: 'The marketing budget is 20L.', numeric: true },
  { shape: 'is', old: 'The release manager is Pat.', new: 'The release manager for the mobile app is Quinn.' },
  { shape: 'is', old: 'The deploy target is production.', new: 'The deploy target for the docs site is staging.' },
  {
    shape: 'number',
    old: 'The API rate limit is 100 requests per minute.',
    new: 'The API rate limit for admin keys is 1000 requests per minute.',
    numeric: true,
  },

  // additive facts
  { shape: 'preference', old: 'The user likes Python.', new: 'The user also likes Go.' },
  { shape: 'is', old: 'Alice speaks German.', new: 'Alice speaks Portuguese as well.' },
  { shape: 'is', old: 'The frontend uses React.', new: 'The frontend uses TypeScript too.' },
  { shape: 'is', old: 'Erin is the tech lead for the search project.', new: 'Erin is also on the hiring committee.' },
  { shape: 'is', old: 'The user is allergic to peanuts.', new: 'The user is also allergic to shellfish.' },
  { shape: 'is', old: 'The mobile app supports iOS.', new: 'The mobile app supports Android as well.' },
  { shape: 'is', old: 'Alice is a backend engineer.', new: 'Alice is a volunteer firefighter.' },
  { shape: 'is', old: 'The user is learning Spanish.', new: 'The user is learning to play the guitar.' },
  { shape: 'number', old: 'The user has two kids.', new: 'The user has one dog.', numeric: true },
  { shape: 'is', old: 'The user has a dog named Rex.', new: 'The user has a cat named Mochi.' },

  // different attribute of the same subject
  { shape: 'decision', old: 'We use Postgres for the main database.', new: 'We use Redis for caching.' },
  { shape: 'decision', old: 'We decided to use Redis for the session store.', new: 'We decided to use S3 for file uploads.' },
  { shape: 'schedule', old: 'The weekly sync is on Tuesday.', new: 'The design review is on Thursday.' },
  { shape: 'schedule', old: 'The release is scheduled for June 12.', new: 'The code freeze starts on June 5.', numeric: true },
  { shape: 'schedule', old: 'The sprint demo is on Friday at 3pm.', new: 'The sprint planning is on Monday at 10am.', numeric: true },
  { shape: 'schedule', old: "Frank's birthday is on March 13.", new: "Frank's wedding anniversary is on June 2.", numeric: true },
  { shape: 'number', old: 'The team has 6 engineers.', new: 'The team has 2 designers.', numeric: true },
  { shape: 'preference', old: "The user's favourite food is sushi.", new: "The user's favourite drink is mango lassi." },
  { shape: 'preference', old: 'The user prefers dark mode.', new: "The user's editor font is JetBrains Mono." },
  { shape: 'preference', old: 'Bob prefers tabs.', new: 'Bob prefers a 100-character line limit.' },
  { shape: 'preference', old: 'Ivan prefers spaces over tabs.', new: 'Ivan prefers Vim over Emacs.' },
  { shape: 'preference', old: 'Nina drinks her coffee black.', new: 'Nina drinks green tea in the afternoon.' },
  { shape: 'name', old: "The user's name is Samira.", new: "The user's nickname is Sam." },
  { shape: 'name', old: 'The internal wiki is called Compass.', new: 'The internal wiki is hosted on Confluence.' },
  { shape: 'name', old: "The project's code name is Osprey.", new: "The project's mascot is a bird named Ozzy." },
  { shape: 'is', old: 'The auth service logs at debug level.', new: 'The auth service is written in Go.' },
  { shape: 'is', old: 'The user is vegetarian.', new: 'The user is training for a marathon.' },
  { shape: 'is', old: 'Dana works on the mobile team.', new: 'Dana mentors two interns on the mobile team.' },
  { shape: 'is', old: 'Paul joined the company in 2021.', new: 'Paul was promoted to senior engineer in 2024.', numeric: true },
  { shape: 'is', old: 'The Tokyo team works in JST.', new: 'The Tokyo team has weekly standups on Monday.' },
  { shape: 'is', old: 'The office is closed on public holidays.', new: 'The office is open from 8am to 6pm on weekdays.' },

  // more detail about the same thing
  { shape: 'detail', old: 'Search runs on OpenSearch.', new: 'OpenSearch runs on three dedicated nodes.' },
  { shape: 'detail', old: 'Our message queue is Kafka.', new: 'Our Kafka cluster has 12 partitions per topic.' },
  { shape: 'detail', old: 'The CI pipeline runs on GitHub Actions.', new: 'The CI pipeline runs unit tests and lint checks.' },
  { shape: 'detail', old: 'The data pipeline runs nightly at 2am.', new: 'The data pipeline writes its output to the analytics bucket.' },
  { shape: 'detail', old: 'We deploy to production on Thursdays.', new: 'We deploy the docs site on every merge.' },
];

/** Paraphrased restatements of the same claim: expected relation `agrees`, never `supersedes`. */
export const AGREEING_PAIRS: readonly ClaimPair[] = [
  { shape: 'preference', old: "Bob's favourite colour is blue.", new: 'Bob likes blue best.' },
  { shape: 'is', old: 'The deploy target is production.', new: 'We deploy to production.' },
  { shape: 'ownership', old: 'The billing service is owned by the payments team.', new: 'The payments team owns the billing service.' },
  { shape: 'location', old: 'Alice lives in Berlin.', new: 'Alice is based in Berlin.' },
  { shape: 'schedule', old: 'The weekly sync is on Tuesday.', new: 'We have the weekly sync every Tuesday.' },
  { shape: 'number', old: 'The monthly budget is 80L.', new: 'The budget is 80L per month.', numeric: true },
  { shape: 'decision', old: 'We decided to use Redis for the session store.', new: 'Redis will be used for the session store.' },
  { shape: 'preference', old: 'The user prefers dark mode.', new: 'The user likes using dark mode.' },
  { shape: 'name', old: 'The internal wiki is called Compass.', new: "The internal wiki's name is Compass." },
  { shape: 'ownership', old: 'The search index is maintained by Kevin.', new: 'Kevin maintains the search index.' },
  { shape: 'location', old: 'The company is headquartered in Austin.', new: "The company's headquarters are in Austin." },
  {
    shape: 'number',
    old: 'The API rate limit is 100 requests per minute.',
    new: 'API requests are rate-limited to 100 per minute.',
    numeric: true,
  },
  { shape: 'possessive', old: "Carol's manager is Erin.", new: 'Carol reports to Erin.' },
  { shape: 'schedule', old: 'The release is scheduled for June 12.', new: 'The release date is June 12.', numeric: true },
  { shape: 'is', old: 'The user is vegetarian.', new: "The user doesn't eat meat." },
  { shape: 'is', old: 'The frontend is built with Vite.', new: 'The frontend uses Vite for builds.' },
  { shape: 'name', old: "The dog's name is Biscuit.", new: 'The dog is called Biscuit.' },
  { shape: 'number', old: 'The team has 9 engineers.', new: 'There are 9 engineers on the team.', numeric: true },
  { shape: 'preference', old: 'Ivan prefers spaces.', new: 'Ivan prefers spaces for indentation.' },
  { shape: 'location', old: 'The staging cluster is in eu-west-1.', new: 'The staging cluster runs in the eu-west-1 region.' },
  {
    shape: 'ownership',
    old: 'The ETL pipeline is owned by the analytics team.',
    new: 'The analytics team is responsible for the ETL pipeline.',
  },
  { shape: 'location', old: 'Mallory is based in Dublin.', new: 'Mallory lives in Dublin.' },
  { shape: 'decision', old: 'We will use GraphQL for the public API.', new: 'The public API will use GraphQL.' },
  { shape: 'schedule', old: 'The sprint demo is at 11am on Friday.', new: 'The sprint demo happens Fridays at 11am.', numeric: true },
];
