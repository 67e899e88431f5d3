import type { MemoryRecord } from '../../src/core/memory.js';

export declare const ANN_TEST_DIMENSION: number;
export declare function annTestVector(i: number): Float32Array;
export declare function annTestId(i: number): string;
export declare function annTestRecord(scope: string, i: number, overrides?: Partial<MemoryRecord>): MemoryRecord;
