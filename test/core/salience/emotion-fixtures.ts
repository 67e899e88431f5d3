/**
 * Hand-labelled sentences for the emotion analyser, written before its lexicon: chat turns, agent
 * observations and work incidents, about half positive and half negative, some with negation.
 */

/** A sentence and the sign its valence must have. */
export interface LabelledSentence {
  text: string;
  sign: 1 | -1;
}

export const LABELLED_SENTENCES: readonly LabelledSentence[] = [
  // chat turns, positive
  { text: 'I love this new keyboard, typing feels amazing!', sign: 1 },
  { text: 'Thanks so much, that was really helpful :)', sign: 1 },
  { text: "We just got engaged and I'm so happy 😊", sign: 1 },
  { text: 'My daughter won her first chess tournament today, so proud of her.', sign: 1 },
  { text: 'The hike was beautiful and the weather was perfect.', sign: 1 },
  { text: "Honestly this isn't bad at all.", sign: 1 },
  { text: 'I finally feel relaxed after the vacation.', sign: 1 },
  { text: 'Great job on the presentation, everyone loved it!', sign: 1 },
  { text: "I'm excited to start the new job next week!", sign: 1 },
  { text: 'The support group was really powerful and I felt accepted.', sign: 1 },
  { text: 'Dinner at that place was delicious, we should go again.', sign: 1 },
  { text: 'I appreciate you listening, it means a lot.', sign: 1 },
  // agent observations and work, positive
  { text: 'Deployment succeeded and all tests passed.', sign: 1 },
  { text: 'The fix worked perfectly, latency dropped by half.', sign: 1 },
  { text: 'Robot grasped the mug successfully on the first attempt.', sign: 1 },
  { text: 'The customer was satisfied with the quick resolution.', sign: 1 },
  { text: 'Migration completed smoothly with no errors.', sign: 1 },
  { text: 'The new caching layer is a huge improvement.', sign: 1 },
  { text: 'Review went well and the PR was approved.', sign: 1 },
  { text: 'Our team shipped the release on time, great teamwork.', sign: 1 },
  { text: 'The user said the answer was exactly what they needed.', sign: 1 },
  // chat turns, negative
  { text: 'I hate when the bus is late, it ruins my whole morning.', sign: -1 },
  { text: "I'm so tired and stressed about the exam.", sign: -1 },
  { text: 'My grandmother passed away last night.', sign: -1 },
  { text: 'This is not good at all.', sign: -1 },
  { text: 'Ugh, the app crashed again and I lost my work 😡', sign: -1 },
  { text: 'I feel lonely since moving to the new city.', sign: -1 },
  { text: "I'm worried the surgery won't go well.", sign: -1 },
  { text: 'That movie was boring and way too long.', sign: -1 },
  { text: "I don't like the new design, it's confusing.", sign: -1 },
  { text: 'She was really upset and cried after the argument :(', sign: -1 },
  { text: 'I am disappointed that nobody came to the party.', sign: -1 },
  // agent observations and work, negative
  { text: 'Deploy failed with a timeout error in production.', sign: -1 },
  { text: 'The robot dropped the glass and it broke.', sign: -1 },
  { text: 'Outage lasted two hours and customers were furious.', sign: -1 },
  { text: 'Tests are flaky and the build keeps failing.', sign: -1 },
  { text: 'The database migration corrupted several records.', sign: -1 },
  { text: 'User complained that the answer was wrong and useless.', sign: -1 },
  { text: 'The navigation module is unreliable and slow.', sign: -1 },
  { text: 'Security vulnerability found in the login service, this is critical.', sign: -1 },
  { text: 'The fix did not help, memory usage is still terrible.', sign: -1 },
  { text: "I'm frustrated, nothing works and the docs are useless.", sign: -1 },
];

/** Sentences with no sentiment: facts, schedules, instructions. */
export const NEUTRAL_SENTENCES: readonly string[] = [
  'The meeting is scheduled for 3pm in room 4.',
  'Robot moved from the kitchen to the living room.',
  'The budget for the project is 80L.',
  'Set the timeout to 30 seconds in the config file.',
  'Caroline lives in Boston and works as a nurse.',
  'The report has twelve pages and three tables.',
  'We use PostgreSQL for the user database.',
  'Tomorrow I will take the train to Berlin.',
  'The function returns a list of strings.',
  'Please send me the document by Friday.',
  'The store opens at nine in the morning.',
  'He switched the deploy target from staging to production.',
];
