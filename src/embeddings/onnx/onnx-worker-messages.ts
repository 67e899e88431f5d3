import type { OnnxModelConfig } from './onnx-model.js';

/** The `workerData` an ONNX worker starts with; the marker keeps the module inert when merely imported. */
export interface OnnxWorkerData {
  readonly engramOnnxWorker: true;
  readonly model: OnnxModelConfig;
}
