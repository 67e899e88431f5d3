/** A small history router: client routes are real paths (the server answers index.html for them). */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Route {
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

export function navigate(url: string, options: { replace?: boolean } = {}): void {
  if (options.replace === true) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  for (const l of listeners) l();
}

addEventListener('popstate', () => {
  for (const l of listeners) l();
});

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    listeners.add(update);
    return () => {
      listeners.delete(update);
    };
  }, []);
  return route;
}

/** Follows an in-app link without reloading (ctrl/middle clicks keep their browser meaning). */
export function onLinkClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest('a');
  if (anchor === null || anchor === undefined) return;
  const href = anchor.getAttribute('href');
  if (href === null || !href.startsWith('/') || anchor.target === '_blank' || anchor.hasAttribute('download')) return;
  event.preventDefault();
  navigate(href);
}

export function memoryHref(id: string, scope: string): string {
  return `/memory/${encodeURIComponent(id)}?scope=${encodeURIComponent(scope)}`;
}
