import { Component, type ReactNode } from "react";

/** A rendering fault shows a calm message instead of a blank page; nothing is lost on the server. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main className="mx-auto max-w-lg p-10 text-center">
        <h1 className="text-xl font-semibold">Something went wrong</h1>
        <p className="mt-2 text-slate-700">The page could not be shown. Your saved work is safe on the server.</p>
        <button
          type="button"
          className="mt-6 rounded-md bg-brand-600 px-4 py-2 text-white"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
      </main>
    );
  }
}
