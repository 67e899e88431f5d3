/** Pieces shared by the views. */
import type { ComponentChildren } from 'preact';
import { createContext } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import { scopeList, type ScopeSummary } from './api.js';

export interface Session {
  /** Scopes the signed-in caller may see (from GET /v1/scopes). */
  scopes: ScopeSummary[];
  reloadScopes: () => Promise<void>;
  keyless: boolean;
}

export const SessionContext = createContext<Session>({ scopes: [], reloadScopes: async () => undefined, keyless: false });

export function useSession(): Session {
  return useContext(SessionContext);
}

/** Every visible scope, as the scope field's starting text. */
export function allScopesText(session: Session): string {
  return session.scopes.map((s) => s.scope).join(', ');
}

/** The view's heading; it takes focus when the view opens so screen readers announce it. */
export function ViewTitle(props: { children: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {props.children}
    </h1>
  );
}

export function ErrorMessage(props: { error: string | null }) {
  if (props.error === null) return null;
  return (
    <p class="error" role="alert">
      {props.error}
    </p>
  );
}

export function Status(props: { children: ComponentChildren }) {
  return (
    <p class="status" role="status">
      {props.children}
    </p>
  );
}

/** The editable scope field (comma-separated), named `scope`. */
export function ScopeField(props: { value: string; onInput: (value: string) => void; id?: string; label?: string }) {
  const id = props.id ?? 'scope';
  return (
    <div class="field">
      <label for={id}>{props.label ?? 'Scopes'}</label>
      <input
        id={id}
        name="scope"
        type="text"
        value={props.value}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value)}
        aria-describedby={`${id}-hint`}
        spellcheck={false}
        autocomplete="off"
      />
      <small id={`${id}-hint`}>Comma-separated; starts with every scope you can see.</small>
    </div>
  );
}

export function LayerBadge(props: { layer: string }) {
  return <span class={`badge layer-${props.layer}`}>{props.layer}</span>;
}

export function StatusBadge(props: { status: string }) {
  return <span class={`badge status-${props.status}`}>{props.status}</span>;
}

export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** The scope field with a Show button: the form at the top of the overview and the timeline. */
export function ScopeForm(props: { value: string; onInput: (value: string) => void; onShow: (scopes: string[]) => void }) {
  return (
    <form
      class="filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onShow(scopeList(props.value));
      }}
    >
      <ScopeField value={props.value} onInput={props.onInput} />
      <button type="submit">Show</button>
    </form>
  );
}

/** A labelled select of options given as [value, label] pairs (or plain values). */
export function Select(props: {
  id: string;
  name: string;
  label: string;
  value: string;
  options: ReadonlyArray<string | readonly [string, string]>;
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.options.map((o) => {
          const [value, label] = typeof o === 'string' ? [o, o] : o;
          return (
            <option key={value} value={value}>
              {label}
            </option>
          );
        })}
      </select>
    </div>
  );
}

/** One scope out of the visible ones (consolidation and the graph work on one scope). */
export function ScopeSelect(props: { id: string; value: string; onChange: (value: string) => void }) {
  const session = useSession();
  return (
    <Select
      id={props.id}
      name="scope"
      label="Scope"
      value={props.value}
      options={session.scopes.map((s) => s.scope)}
      onChange={props.onChange}
    />
  );
}

/** A table's header row of column headings. */
export function TableHead(props: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((c, i) => (
          <th key={i} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
