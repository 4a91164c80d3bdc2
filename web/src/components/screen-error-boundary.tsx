import { Component, type ReactNode } from 'react';
import { reportError } from '../lib/error-reporting/index.ts';

interface Props {
  /** Changes when the user goes to another screen: the boundary then tries that screen afresh. */
  readonly resetKey: string;
  readonly children: ReactNode;
}

interface State {
  readonly failed: boolean;
}

/**
 * A screen that fails to render shows what happened and a way on, instead of a blank page (React unmounts the whole
 * tree on an uncaught render error). The navigation stays usable: going to another screen clears the error.
 */
export class ScreenErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A screen failed to render', error);
    // Caught here, so the browser's error event never sees it: told to the error service directly.
    reportError(error, { area: 'screen' });
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="page">
        <div className="load-error" role="alert">
          <p>
            <strong>Something went wrong on this screen</strong>
            <span className="muted small">Your runs and goals are safe. Reload to try again.</span>
          </p>
          <button type="button" className="button ghost small" onClick={() => window.location.reload()}>
            Reload
          </button>
        </div>
      </main>
    );
  }
}
