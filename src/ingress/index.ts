// `payflows/ingress`: the callback receiver, to run inside a service of your own.
export { createIngress, type IngressOptions } from './server.js';
export { createIngressOps, type IngressOpsOptions } from './ops.js';
export { inFlightRequests } from './drain.js';
export { createIngressMetrics, type IngressMetrics } from '../telemetry/ingress-metrics.js';
