// Declarations the explorer's code needs and no installed package gives.

// Stylesheets are imported for their side effect: esbuild bundles them into the page's CSS file.
declare module '*.css';

// React is bundled, not typed: the project carries no @types/react. These are the calls the page
// makes; GraphiQL's own props are checked by the browser test (test/browser), which runs it.
declare module 'react' {
  export function createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  export function useState<T>(initial: T): [T, (next: T) => void];
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
}
declare module 'react-dom/client' {
  export function createRoot(container: Element): { render(children: unknown): void };
}
