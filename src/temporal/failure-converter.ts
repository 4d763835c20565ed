import { DefaultFailureConverter } from '@temporalio/common';

// Failures' messages and stack traces move into a payload (`encodedAttributes`) that the payload
// codec encrypts like every other payload; history keeps "Encoded failure" in their place. Loaded
// by path (DataConverter.failureConverterPath), in the worker, inside the workflow bundle, and in
// every client, so it is this module's only job. Error types, retry flags and timeouts stay
// readable: operators filter and act on them, and they hold no personal data.
export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
