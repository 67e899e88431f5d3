/** The Engram web UI: sign in, then the views. */
import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, errorText, storedKey, storeKey, visibleScopes, type ScopeSummary } from './api.js';
import { navigate, onLinkClick, useRoute } from './router.js';
import { SessionContext, type Session } from './shared.js';
import { SignIn } from './views/sign-in.js';
import { SearchView } from './views/search.js';
import { BrowseView } from './views/browse.js';
import { MemoryView } from './views/memory.js';
import { TimelineView } from './views/timeline.js';
import { GraphView } from './views/graph.js';
import { ConsolidationView } from './views/consolidation.js';
import { OverviewView } from './views/overview.js';
import './styles.css';

const NAV = [
  { href: '/', label: 'Overview' },
  { href: '/search', label: 'Search' },
  { href: '/browse', label: 'Browse' },
  { href: '/timeline', label: 'Timeline' },
  { href: '/graph', label: 'Graph' },
  { href: '/consolidation', label: 'Consolidation' },
];

type Auth =
  { state: 'checking' } | { state: 'signed-out'; error: string | null } | { state: 'signed-in'; keyless: boolean; scopes: ScopeSummary[] };

function App() {
  const route = useRoute();
  const [auth, setAuth] = useState<Auth>({ state: 'checking' });

  const check = useCallback(async (key: string | null, fromForm: boolean) => {
    try {
      const scopes = (await api<{ scopes: ScopeSummary[] }>('GET', '/v1/scopes', { key })).scopes;
      if (key !== null) storeKey(key);
      setAuth({ state: 'signed-in', keyless: key === null, scopes });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        if (key !== null) storeKey(null);
        setAuth({
          state: 'signed-out',
          error: fromForm ? (error.status === 401 ? 'That key was not accepted: ' : '') + error.message : null,
        });
      } else {
        setAuth({ state: 'signed-out', error: errorText(error) });
      }
    }
  }, []);

  useEffect(() => {
    void check(storedKey(), false);
  }, [check]);

  const reloadScopes = useCallback(async () => {
    const scopes = await visibleScopes();
    setAuth((a) => (a.state === 'signed-in' ? { ...a, scopes } : a));
  }, []);

  if (auth.state === 'checking')
    return (
      <p class="status" role="status">
        Connecting…
      </p>
    );
  if (auth.state === 'signed-out') return <SignIn error={auth.error} onSubmit={(key) => check(key, true)} />;

  const session: Session = { scopes: auth.scopes, reloadScopes, keyless: auth.keyless };
  const signOut = () => {
    storeKey(null);
    setAuth({ state: 'signed-out', error: null });
    navigate('/');
  };
  const view = pick(route.path, route.query);
  return (
    <SessionContext.Provider value={session}>
      <div onClick={onLinkClick}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a href="/" class="brand">
            Engram
          </a>
          <nav aria-label="Views">
            <ul>
              {NAV.map((item) => (
                <li key={item.href}>
                  <a href={item.href} aria-current={isCurrent(item.href, route.path) ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div class="who">
            <span>{auth.keyless ? 'Keyless (this machine)' : 'Signed in with a key'}</span>
            {auth.keyless ? null : (
              <button type="button" onClick={signOut}>
                Sign out
              </button>
            )}
          </div>
        </header>
        <main id="main" key={route.path + route.query.toString()}>
          {view}
        </main>
      </div>
    </SessionContext.Provider>
  );
}

function isCurrent(href: string, path: string): boolean {
  return href === '/' ? path === '/' || path === '/overview' : path.startsWith(href) || (href === '/browse' && path.startsWith('/memory/'));
}

function pick(path: string, query: URLSearchParams) {
  if (path === '/' || path === '/overview') return <OverviewView />;
  if (path === '/search') return <SearchView query={query} />;
  if (path === '/browse') return <BrowseView query={query} />;
  if (path.startsWith('/memory/'))
    return <MemoryView id={decodeURIComponent(path.slice('/memory/'.length))} scope={query.get('scope') ?? ''} />;
  if (path === '/timeline') return <TimelineView />;
  if (path === '/graph') return <GraphView query={query} />;
  if (path === '/consolidation') return <ConsolidationView query={query} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no view at {path}. Go to the <a href="/">overview</a>.
      </p>
    </section>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
