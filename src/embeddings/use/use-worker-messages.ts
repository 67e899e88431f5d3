/** The `workerData` a USE-lite worker is started with; its marker keeps the module inert when imported. */
export interface UseWorkerData {
  readonly engramUseWorker: true;
}
