import { generateClientSecret } from '../../../src/provider/client-token.js';
import { clients, save, type Stories } from './context.js';

export const stories: Stories = {
  // A token registered and its account created.
  async provisioning() {
    const clientRef = `history-${Date.now()}`;
    await clients.provisioning.start({ clientRef, country: 'DE', secret: generateClientSecret() });
    await clients.provisioning.result(clientRef);
    save('provisioning', 'provisioning', `provision:${clientRef}`);
  },
};
