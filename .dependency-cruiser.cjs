// Which file may import which: the layers of docs/architecture.md, at the level of files, and no
// circle anywhere. `npm run lint` runs it (depcruise); type-only imports count like any other.
//
//   foundation (src/: decimal, json, settings, provider, claims, telemetry, the sandbox)
//     ← processes (workflows/, activities/)
//     ← services (worker/, and in src/ the ingress, the codec server, the client package)
//     ← scripts/, bench/
const SERVICES = '^(worker/|src/ingress/|src/client/|src/temporal/(codec-server|codec-server-main|claims-route)[.]ts$)';
const PROCESSES = '^(workflows/|activities/)';
const TOP = '^(scripts/|bench/)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: the files in it cannot be understood, tested or moved apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'foundation-imports-up',
      comment: 'The foundation (src/) knows no process, service or script: move what is shared down into src/.',
      severity: 'error',
      from: { path: '^src/', pathNot: SERVICES },
      to: { path: [PROCESSES, SERVICES, TOP] },
    },
    {
      name: 'process-imports-up',
      comment: 'Workflows and activities know no service or script: a service assembles them, not the other way.',
      severity: 'error',
      from: { path: PROCESSES },
      to: { path: [SERVICES, TOP] },
    },
    {
      name: 'service-imports-scripts',
      comment: 'Services know no script or bench: move what they share into the service or below.',
      severity: 'error',
      from: { path: SERVICES },
      to: { path: TOP },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test|examples)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
