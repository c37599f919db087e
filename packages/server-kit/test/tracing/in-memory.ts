// Imported first by the tracing tests: the SDK and its instrumentations before anything they trace.
import { instrumentNodeHttp, startInMemoryTracing } from '../../tracing-testing';

export const { spans, tracing } = startInMemoryTracing('trace-test');
instrumentNodeHttp();
