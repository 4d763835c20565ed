import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { positiveAmount } from '../../provider/schemas/common.js';
import type { SandboxContext } from '../context.js';
import { SandboxError } from '../errors.js';
import { newOnboardingLink } from '../onboarding-links.js';
import { completePurchase } from '../purchases.js';
import { own } from '../store.js';
import { currentReservation } from './orders.js';

// The pages an end user opens (docs/provider-contract.md §2.8, §4.3): the onboarding link and the hosted
// checkout. Opening a page changes nothing (link previews open links too): the user's button does.

const page = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;max-width:40em;margin:2em auto">${body}</body>`;
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const html = (reply: FastifyReply, code: number, title: string, body: string) =>
  reply.code(code).type('text/html').send(page(title, body));
/** A submitted HTML form's fields (the sandbox keeps every body as raw bytes). */
const formOf = (req: FastifyRequest) => new URLSearchParams(Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '');

export function registerPageRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx.store;

  /** The link behind `token` while it lives, or the page that says why not. */
  const liveLink = (token: string, reply: FastifyReply) => {
    const link = own(state.onboardingLinks, token);
    if (!link) {
      void html(reply, 404, 'Unknown link', '<h1>This onboarding link does not exist</h1>');
      return undefined;
    }
    if (ctx.now() > link.expiresAt) {
      void html(
        reply,
        410,
        'Link expired',
        '<h1>This onboarding link has expired</h1><p>Links live 30 minutes; ask for a new one.</p>',
      );
      return undefined;
    }
    return link;
  };

  app.get('/sandbox/idverify/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const link = liveLink(token, reply);
    if (!link) return reply;
    const status = state.users[link.userId]?.user.status;
    const action =
      status === 'OPEN'
        ? `<form method="post" action="/sandbox/idverify/${escape(token)}"><p>Your documents are ready.</p><button>Submit for review</button></form>`
        : `<p>Status: <b id="status">${escape(String(status))}</b></p>`;
    return html(
      reply,
      200,
      'Verify your identity',
      `<h1>Identity verification</h1><p>Applicant ${escape(link.applicantId)} for user ${escape(link.userId)}.</p>${action}`,
    );
  });

  // Submitting starts the review: the user moves from OPEN to PENDING (the reviewer decides later).
  app.post('/sandbox/idverify/:token', async (req, reply) => {
    const { token } = req.params as { token: string };
    const link = liveLink(token, reply);
    if (!link) return reply;
    const user = state.users[link.userId];
    if (user && user.user.status === 'OPEN') {
      user.user.status = 'PENDING';
      ctx.changed();
    }
    return html(
      reply,
      200,
      'Submitted',
      `<h1>Submitted for review</h1><p>Status: <b id="status">${escape(String(user?.user.status))}</b></p>`,
    );
  });

  /** The reservation the page is for while it can be paid, or the page that says why not. */
  const openReservation = (id: string | null | undefined, reply: FastifyReply) => {
    let record;
    try {
      record = currentReservation(ctx, id ?? '');
    } catch {
      void html(reply, 404, 'Unknown reservation', '<h1>This checkout does not exist</h1>');
      return undefined;
    }
    if (record.status !== 'OPEN') {
      void html(reply, 410, 'Checkout closed', `<h1>This checkout is ${record.status.toLowerCase()}</h1>`);
      return undefined;
    }
    return record;
  };

  app.get('/sandbox/checkout', async (req, reply) => {
    const { reservation } = req.query as { reservation?: string };
    const record = openReservation(reservation, reply);
    if (!record) return reply;
    const { sourceAmount, destAmount, sourceCurrency } = record.request;
    const locked = sourceAmount ?? destAmount;
    const amountField =
      locked === undefined ? '<label>Amount <input name="amount" inputmode="decimal" required></label> ' : '';
    // The banner's link makes an onboarding link: a button (POST), since opening a page changes nothing.
    const banner = `<form method="post" action="/sandbox/checkout/onboarding" style="display:inline"><input type="hidden" name="reservation" value="${escape(record.id)}"><button>Onboarding</button></form>`;
    return html(
      reply,
      200,
      'Checkout',
      `<div style="background:#eef;padding:.5em">Higher limits? ${banner}</div>` +
        `<h1>Buy ${escape(String(locked ?? ''))} ${escape(String(sourceCurrency ?? ''))}</h1><p>Reservation ${escape(record.id)}</p>` +
        `<form method="post" action="/sandbox/checkout/pay"><input type="hidden" name="reservation" value="${escape(record.id)}">` +
        `${amountField}<label>Card <input name="card" value="4242 4242 4242 4242"></label> <button>Pay</button></form>`,
    );
  });

  // The buyer pays: the order runs (src/sandbox/purchases.ts) and the browser goes to the
  // reservation's redirectUrl, or failureRedirectUrl when a limit refuses it, as the real page does.
  app.post('/sandbox/checkout/pay', async (req, reply) => {
    const form = formOf(req);
    const record = openReservation(form.get('reservation'), reply);
    if (!record) return reply;
    // A locked amount is the reservation's (§OP-8), whatever the form says; otherwise what the
    // person typed: digits with an optional decimal part (no exponent, no sign).
    const locked = record.request.sourceAmount ?? record.request.destAmount;
    let amount: string | undefined;
    if (locked === undefined) {
      const typed = form.get('amount')?.trim() ?? '';
      const parsed = positiveAmount.safeParse(/^\d+(\.\d+)?$/.test(typed) ? typed : '');
      if (!parsed.success)
        return html(reply, 400, 'Amount', '<h1>Enter the amount as a positive number, such as 25.50</h1>');
      amount = parsed.data;
    }
    let paid;
    try {
      paid = await completePurchase(ctx, record.id, amount);
    } catch (err) {
      if (!(err instanceof SandboxError)) throw err;
      return html(reply, 400, 'Payment refused', `<h1>Payment refused</h1><p>${escape(err.message)}</p>`);
    }
    ctx.changed();
    if (paid.redirect) return reply.redirect(paid.redirect, 303);
    const { order } = paid;
    return order.status === 'COMPLETE'
      ? html(reply, 200, 'Paid', `<h1>Payment complete</h1><p>Order <b id="order">${escape(order.id)}</b></p>`)
      : html(reply, 200, 'Payment refused', `<h1>Payment refused</h1><p>${escape(String(order.failureReason))}</p>`);
  });

  // The banner's Onboarding button starts the verification flow of the reservation's owner (§4.3).
  app.post('/sandbox/checkout/onboarding', async (req, reply) => {
    const record = openReservation(formOf(req).get('reservation'), reply);
    if (!record) return reply;
    const userId = record.owner?.replace(/^user:/, '');
    if (!userId || !state.users[userId])
      return html(
        reply,
        404,
        'No user',
        '<h1>This checkout is not for a user</h1><p>Onboarding needs the reservation’s owner.</p>',
      );
    const link = newOnboardingLink(ctx, userId);
    ctx.changed();
    return reply.redirect(`/sandbox/idverify/${link.token}`, 303);
  });
}
