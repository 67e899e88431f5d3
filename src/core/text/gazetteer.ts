/**
 * A small gazetteer for the entity heuristic: unambiguous lowercase names of people, places,
 * organisations and products. It decides sentence-initial words ("Caroline went home") and finds
 * entities in all-lowercase chat ("flew to paris with alice"). Words that are also common English
 * words (will, mark, may, grace, apple, amazon, python, rust) are left out on purpose: capitalised
 * mid-sentence they are still found by the capitalisation rule.
 */

const FIRST_NAMES = `
aaron abigail adam adrian ahmed aisha alan albert ali alex alexander alexandra alexis alice alicia allison amanda amelia amir
amy ana andrea andrew angela anna anne anthony antonio arthur ashley audrey austin barbara ben benjamin beth betty
bob bobby brandon brenda brian brittany bruce caleb calvin cameron carl carla carlos carol caroline carolyn
catherine charles charlie charlotte chen chloe chris christian christina christine christopher cindy claire clara
cynthia daniel danielle dave david debbie deborah debra denise dennis diana diane dmitri donald donna dorothy dylan
eleanor elena elijah elizabeth ella emily emma eric erica ethan evan evelyn fatima fiona gabriel gary george
gina gregory hannah harold harper harry heather helen henry hiroshi holly hugo ian isaac isabella jacob jake james
jamie jane janet jason jeffrey jennifer jeremy jerry jessica joanna joe john johnny jolene jon jonathan jordan
jose joseph josh joshua joyce juan judith julia julie justin karen kate katherine kathleen kathryn keith kelly kenneth
kevin kim kimberly kyle laura lauren leo liam linda lisa logan louis lucas lucy luis luke madison maria marie
marilyn martha martin mary matt matthew megan melanie melissa mia michael michelle mike miguel mohammed nancy naomi natalie
nate nathan nicholas nicole noah oliver olivia omar oscar pamela patricia patrick paul paula peter philip priya
rachel rahul raj rebecca richard robert roger ronald ruth ryan sam samantha samuel sandra sara sarah scott sean sharon
shirley sophia sophie stephanie stephen steve steven susan teresa theresa thomas tim timothy tom tyler valerie vanessa
victoria vincent walter wei william yuki zachary zoe
`;

const PLACES = `
afghanistan albania algeria argentina armenia australia austria bangladesh belgium bolivia brazil bulgaria
cambodia canada chile china colombia croatia cuba cyprus czechia denmark ecuador egypt england estonia ethiopia
finland france germany ghana greece hungary iceland india indonesia iran iraq ireland israel italy jamaica japan
kenya korea latvia lebanon lithuania luxembourg malaysia mexico mongolia morocco nepal netherlands nigeria norway
pakistan peru philippines poland portugal romania russia scotland serbia singapore slovakia slovenia somalia
spain sweden switzerland syria taiwan thailand tunisia uganda ukraine uruguay venezuela vietnam wales
yemen zimbabwe
amsterdam athens atlanta auckland austin bangalore bangkok barcelona beijing berlin bogota boston brisbane
brussels budapest buenos_aires cairo calgary chicago copenhagen dallas delhi denver detroit dubai dublin
edinburgh frankfurt geneva glasgow hamburg helsinki hong_kong honolulu houston istanbul jakarta jerusalem
johannesburg kyiv kiev lagos las_vegas lima lisbon london los_angeles madrid manchester manila melbourne
miami milan montreal moscow mumbai munich nairobi naples new_delhi new_orleans new_york oslo osaka ottawa paris
perth philadelphia phoenix prague rome san_diego san_francisco san_jose santiago sao_paulo seattle seoul shanghai
singapore stockholm sydney taipei tokyo toronto vancouver venice vienna warsaw washington zurich
alaska arizona bavaria california catalonia colorado florida georgia hawaii idaho illinois michigan minnesota
nevada ohio oregon quebec tasmania texas tuscany utah vermont virginia yorkshire
africa antarctica asia europe oceania scandinavia siberia sahara himalayas alps amazonia
`;

const ORGANISATIONS_AND_PRODUCTS = `
google alphabet microsoft openai anthropic deepmind facebook instagram whatsapp youtube netflix spotify twitter
linkedin github gitlab bitbucket telegram reddit wikipedia stackoverflow nvidia intel ibm oracle
salesforce adobe samsung sony nintendo toyota tesla spacex nasa uber lyft airbnb walmart starbucks ikea nike
adidas pepsi coca-cola volkswagen bmw mercedes boeing airbus mastercard paypal shopify cloudflare
dropbox zendesk atlassian jira confluence trello figma canva
iphone ipad macbook macos ios android linux ubuntu debian fedora kubernetes docker postgres postgresql sqlite mysql
mongodb redis kafka elasticsearch typescript javascript golang nodejs node.js npm webpack vscode neovim emacs
chatgpt aws azure gcp terraform ansible jenkins grafana prometheus pytorch tensorflow huggingface
harvard stanford yale princeton oxford mit caltech berkeley unicef unesco nato
`;

function entries(block: string): string[] {
  return block
    .split(/\s+/u)
    .filter((entry) => entry.length > 0)
    .map((entry) => entry.replaceAll('_', ' '));
}

let gazetteer: ReadonlySet<string> | undefined;

/** The gazetteer entries, lowercase, multi-word entries joined by single spaces. */
export function gazetteerEntries(): ReadonlySet<string> {
  gazetteer ??= new Set([...entries(FIRST_NAMES), ...entries(PLACES), ...entries(ORGANISATIONS_AND_PRODUCTS)]);
  return gazetteer;
}

let firstWords: ReadonlyMap<string, number> | undefined;

/**
 * Each entry's first word, with the word counts of the entries it starts as bits (bit w: an entry of
 * w words): a word that starts none needs no window of the text looked up.
 */
export function gazetteerFirstWords(): ReadonlyMap<string, number> {
  if (firstWords === undefined) {
    const map = new Map<string, number>();
    for (const entry of gazetteerEntries()) {
      const words = entry.split(' ');
      const first = words[0] as string;
      map.set(first, (map.get(first) ?? 0) | (1 << words.length));
    }
    firstWords = map;
  }
  return firstWords;
}

/** Words in the longest gazetteer entry ("new york"). */
export const GAZETTEER_MAX_WORDS = 2;
