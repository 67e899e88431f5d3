/**
 * Paraphrase checks. For each triple an embedder should place the query closer to the
 * right answer (a paraphrase in mostly different words) than to the distractor.
 */
export interface ParaphraseTriple {
  readonly query: string;
  readonly right: string;
  readonly distractor: string;
}

/**
 * The paraphrase check: twenty triples from the domains agents remember, each distractor on another
 * topic. Bag-of-words overlap barely helps (the right answers share almost no content word with the
 * query), so a random or purely lexical embedder scores about half.
 */
export const PARAPHRASE_TRIPLES: readonly ParaphraseTriple[] = [
  { query: 'the cat sat on the mat', right: 'a kitten was resting on the rug', distractor: 'quarterly revenue grew by five percent' },
  {
    query: 'how can I get my money back for this purchase',
    right: 'request a refund for an order',
    distractor: 'the weather will be sunny all weekend',
  },
  {
    query: 'the user is allergic to peanuts',
    right: 'she cannot eat nuts because of an allergy',
    distractor: 'the user prefers dark mode in the editor',
  },
  {
    query: 'deploy the service to production',
    right: 'release the app to the live servers',
    distractor: 'the children painted pictures at school',
  },
  { query: 'I feel very happy today', right: 'I am in a joyful mood', distractor: 'the database migration failed' },
  { query: 'the car would not start this morning', right: 'my automobile broke down', distractor: 'she planted roses in the garden' },
  {
    query: 'when is the meeting on tuesday',
    right: 'what time is the appointment scheduled for tuesday',
    distractor: 'the recipe needs two cups of flour',
  },
  {
    query: 'the laptop keeps crashing',
    right: 'my computer freezes and reboots all the time',
    distractor: 'the river flooded the old bridge',
  },
  { query: 'book a flight to paris', right: 'reserve a plane ticket to france', distractor: 'the printer is out of ink' },
  { query: 'the robot picked up the mug', right: 'the machine grasped the cup', distractor: 'the stock market fell sharply' },
  { query: 'he is a vegetarian', right: 'he does not eat meat', distractor: 'he is a software engineer' },
  { query: 'the website is very slow', right: 'the pages take a long time to load', distractor: 'my grandmother knits warm sweaters' },
  { query: 'increase the marketing budget', right: 'spend more money on advertising', distractor: 'the cat is sleeping on the sofa' },
  { query: 'the patient has a fever', right: 'the sick person has a high temperature', distractor: 'the invoice was paid last week' },
  { query: 'fix the bug in the login page', right: 'repair the error on the sign in screen', distractor: 'plant tomatoes in the spring' },
  { query: 'the baby is crying', right: 'the infant is in tears', distractor: 'the train arrives at noon' },
  { query: 'buy groceries after work', right: 'pick up food at the supermarket this evening', distractor: 'the report is due on friday' },
  { query: 'the movie was boring', right: 'the film was dull', distractor: 'the engine needs new oil' },
  { query: 'turn off the lights in the kitchen', right: 'switch off the kitchen lamps', distractor: 'send the contract to the lawyer' },
  { query: 'our team won the championship', right: 'the squad took the title', distractor: 'the soup is too salty' },
];

/**
 * The same queries and right answers, but each distractor shares a word with the query in another
 * sense or context ("fix the bug in the login page" / "a bug flew in through the window"). Only a
 * contextual model resolves these; a static bag-of-words table cannot.
 */
export const LEXICAL_TRAP_TRIPLES: readonly ParaphraseTriple[] = [
  { query: 'the cat sat on the mat', right: 'a kitten was resting on the rug', distractor: 'quarterly revenue grew by five percent' },
  {
    query: 'how can I get my money back for this purchase',
    right: 'request a refund for an order',
    distractor: 'the purchase of the new building was announced',
  },
  {
    query: 'the user is allergic to peanuts',
    right: 'she cannot eat nuts because of an allergy',
    distractor: 'the user prefers dark mode in the editor',
  },
  {
    query: 'deploy the service to production',
    right: 'release the app to the live servers',
    distractor: 'the production of the school play was cancelled',
  },
  { query: 'I feel very happy today', right: 'I am in a joyful mood', distractor: 'today the database migration failed' },
  { query: 'the car would not start this morning', right: 'my automobile broke down', distractor: 'the race will start in the morning' },
  {
    query: 'when is the meeting on tuesday',
    right: 'what time is the appointment scheduled for tuesday',
    distractor: 'tuesday is when the garbage is collected',
  },
  {
    query: 'the laptop keeps crashing',
    right: 'my computer freezes and reboots all the time',
    distractor: 'the laptop bag is on the chair',
  },
  { query: 'book a flight to paris', right: 'reserve a plane ticket to france', distractor: 'she wrote a book about paris' },
  { query: 'the robot picked up the mug', right: 'the machine grasped the cup', distractor: 'the stock market picked up after lunch' },
  { query: 'he is a vegetarian', right: 'he does not eat meat', distractor: 'he is a software engineer' },
  { query: 'the website is very slow', right: 'the pages take a long time to load', distractor: 'the website has a new logo' },
  { query: 'increase the marketing budget', right: 'spend more money on advertising', distractor: 'the marketing team had lunch together' },
  {
    query: 'the patient has a fever',
    right: 'the sick person has a high temperature',
    distractor: 'the patient paid the invoice last week',
  },
  {
    query: 'fix the bug in the login page',
    right: 'repair the error on the sign in screen',
    distractor: 'a bug flew in through the window',
  },
  { query: 'the baby is crying', right: 'the infant is in tears', distractor: 'the baby photos are in the album' },
  {
    query: 'buy groceries after work',
    right: 'pick up food at the supermarket this evening',
    distractor: 'work on the report after lunch',
  },
  { query: 'the movie was boring', right: 'the film was dull', distractor: 'the movie theater is downtown' },
  { query: 'turn off the lights in the kitchen', right: 'switch off the kitchen lamps', distractor: 'the kitchen table is made of oak' },
  { query: 'our team won the championship', right: 'the squad took the title', distractor: 'our team moved to a new office' },
];
