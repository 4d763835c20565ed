import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { own } from '../store.js';
import { currentReservation } from './orders.js';

// The two pages a person opens: the onboarding link (docs/provider-contract.md §2.8) and the hosted checkout (docs/provider-contract.md §4.3).
// Deliberately plain; what matters is their life cycle.

const page = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;max-width:40em;margin:2em auto">${body}</body>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerPageRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx.store;

  // Opening a live link starts the verification: the user moves from OPEN to PENDING review.
  app.get('/sandbox/idverify/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const link = own(state.onboardingLinks, token);
    if (!link)
      return reply
        .code(404)
        .type('text/html')
        .send(page('Unknown link', '<h1>This onboarding link does not exist</h1>'));
    if (ctx.now() > link.expiresAt) {
      return reply
        .code(410)
        .type('text/html')
        .send(
          page(
            'Link expired',
            '<h1>This onboarding link has expired</h1><p>Links live 30 minutes; ask for a new one.</p>',
          ),
        );
    }
    const user = state.users[link.userId];
    if (user && user.user.status === 'OPEN') {
      user.user.status = 'PENDING';
      ctx.changed();
    }
    return reply
      .type('text/html')
      .send(
        page(
          'Verify your identity',
          `<h1>Identity verification</h1><p>Applicant ${escape(link.applicantId)} for user ${escape(link.userId)}: submitted for review.</p>`,
        ),
      );
  });

  app.get('/sandbox/checkout', async (req, reply) => {
    const { reservation } = req.query as { reservation?: string };
    let record;
    try {
      record = currentReservation(ctx, reservation ?? '');
    } catch {
      return reply
        .code(404)
        .type('text/html')
        .send(page('Unknown reservation', '<h1>This checkout does not exist</h1>'));
    }
    if (record.status !== 'OPEN')
      return reply
        .code(410)
        .type('text/html')
        .send(page('Checkout closed', `<h1>This checkout is ${record.status.toLowerCase()}</h1>`));
    const amount = record.request.sourceAmount ?? record.request.destAmount ?? '';
    return reply
      .type('text/html')
      .send(
        page(
          'Checkout',
          `<div style="background:#eef;padding:.5em">Higher limits? <a href="#onboarding">Onboarding</a></div><h1>Buy ${escape(String(amount))} ${escape(String(record.request.sourceCurrency ?? ''))}</h1><p>Reservation ${escape(record.id)}</p>`,
        ),
      );
  });
}
