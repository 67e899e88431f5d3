/**
 * English stop words: the `stopword` package's list plus common function words it lacks and the
 * fillers of chat turns ("ok", "thanks", "lol"), so that content terms are what a message is about.
 */
import { eng } from 'stopword';
import { CJK_STOP_WORDS } from './cjk.js';

const FUNCTION_WORDS = `
about above across after afterwards again against ago all almost alone along already also although always am
among amongst an and another any anybody anyhow anyone anything anyway anyways anywhere are around as at back be
became because become becomes been before beforehand behind being below beside besides between beyond both but by
can cannot could did do does doing done down during each either else elsewhere enough etc even ever every everybody
everyone everything everywhere except few for former formerly from further furthermore had has have having he hence
her here hereafter hereby herein hers herself him himself his how however i if in indeed instead into is it its
itself just last latter latterly least less let lets many me meanwhile might mine more moreover most mostly much
must my myself namely neither never nevertheless next no nobody none noone nor not nothing now nowhere of off often
on once one only onto or other others otherwise our ours ourselves out over own per perhaps please quite rather
same several she should since so some somebody somehow someone something sometime sometimes somewhere still such
than that the their theirs them themselves then thence there thereafter thereby therefore therein thereupon these
they this those though through throughout thru thus to together too toward towards under unless until up upon us
very via was we well were what whatever when whence whenever where whereafter whereas whereby wherein whereupon
wherever whether which while whither who whoever whole whom whose why will with within without would yet you your
yours yourself yourselves
i'm i've i'll i'd you're you've you'll you'd he's she's it's we're we've we'll we'd they're they've they'll they'd
that's there's here's what's who's where's how's let's can't won't don't doesn't didn't isn't aren't wasn't weren't
hasn't haven't hadn't shouldn't wouldn't couldn't mustn't shan't ain't
`;

const CHAT_FILLERS = `
ok okay okey k kk yeah yea yes yep yup nope nah hi hello hey hiya howdy bye goodbye cya thanks thank thx ty cheers
lol lmao haha hahaha hehe um umm uh uhh hmm hmmm mm oh ah aha ooh wow whoa oops please pls plz sure alright
just really actually basically literally totally gonna wanna gotta kinda sorta anyway btw fyi imo
imho tbh idk dunno guess got get gets getting like stuff thing things yeah yes
`;

function words(block: string): string[] {
  return block.split(/\s+/u).filter((word) => word.length > 0);
}

/** Stop words (lowercase): `stopword`'s English list, common function words, chat fillers, and Chinese function words. */
export const STOP_WORDS: ReadonlySet<string> = new Set<string>([
  ...eng,
  ...words(FUNCTION_WORDS),
  ...words(CHAT_FILLERS),
  ...CJK_STOP_WORDS,
]);

/** Whether a lowercase token is a stop word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
