// Monaco (the editor GraphiQL is built on) runs its language services in web workers, which it
// asks MonacoEnvironment.getWorker for: the GraphQL worker (completion and validation against
// the schema), the JSON worker (the variables and headers editors) and the base editor worker.
// The build bundles each as a file of its own and names them here (EXPLORER_WORKERS); they load
// from this service, like everything else the page uses.

/** The workers' URLs, by Monaco's label, defined at build time by scripts/build-explorer.ts. */
declare const EXPLORER_WORKERS: { editor: string; json: string; graphql: string };

interface MonacoEnvironment {
  getWorker(workerId: string, label: string): Worker;
}

export function installMonacoWorkers(): void {
  (globalThis as { MonacoEnvironment?: MonacoEnvironment }).MonacoEnvironment = {
    getWorker(_workerId: string, label: string): Worker {
      const url = label === 'json' ? EXPLORER_WORKERS.json : label === 'graphql' ? EXPLORER_WORKERS.graphql : EXPLORER_WORKERS.editor;
      return new Worker(url, { name: `monaco-${label}` });
    },
  };
}
