/** Sign in: an API key, entered once and kept for this browser session (sessionStorage). */
import { useState } from 'preact/hooks';
import { ErrorMessage, ViewTitle } from '../shared.js';

export function SignIn(props: { error: string | null; onSubmit: (key: string) => Promise<void> }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" class="sign-in">
      <ViewTitle>Sign in to Engram</ViewTitle>
      <p>
        This server needs an API key. Create one with <code>engram keys create --tenant &lt;tenant&gt;</code>; it is kept only for this
        browser session.
      </p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          // The field as it is now, not the state of the last render: an Enter right behind the last
          // keystroke, or an autofill that fires no input event, still sends the whole key.
          const field = (event.currentTarget as HTMLFormElement).elements.namedItem('key') as HTMLInputElement | null;
          const typed = (field?.value ?? key).trim();
          if (typed === '') return;
          setBusy(true);
          await props.onSubmit(typed);
          setBusy(false);
        }}
      >
        <div class="field">
          <label for="api-key">API key</label>
          <input
            id="api-key"
            name="key"
            type="password"
            autocomplete="off"
            required
            value={key}
            onInput={(e) => setKey((e.target as HTMLInputElement).value)}
          />
        </div>
        <ErrorMessage error={props.error} />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
