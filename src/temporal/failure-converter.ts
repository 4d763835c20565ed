import { DefaultFailureConverter } from '@temporalio/common';

// Failures' messages and stack traces move into a payload the codec encrypts. Loaded by path
// (failureConverterPath) in workers, bundles and clients, so this is the module's only job. Error
// types, retry flags and timeouts stay readable: operators act on them, and they hold no personal data.
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
