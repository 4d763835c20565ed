import { DEBIT_CARD_L2, type User } from '../../provider/schemas/user.js';
import { userFor } from '../access.js';
import type { SandboxContext } from '../context.js';
import { SandboxError, validationError } from '../errors.js';
import { newId } from '../ids.js';
import { countryOf, limitsFor } from '../limits.js';
import { newOnboardingLink, onboardingLinkUrl } from '../onboarding-links.js';
import type { ProviderRoute } from '../provider-route.js';
import { calculateLimits, createUser, readOnboardingLink, readUser } from '../../provider/endpoints.js';
import { blockchainList, depositAddresses } from './wallets.js';

const KNOWN_SCOPES = [DEBIT_CARD_L2];

export function registerUserRoutes(route: ProviderRoute, ctx: SandboxContext): void {
  const { state } = ctx.store;

  // docs/provider-contract.md §OP-3.
  route(createUser, ({ actor, body: req }) => {
    const owner = state.accounts[actor.accountId]!;
    if (actor.userId)
      throw new SandboxError('AccessDeniedException', "A user cannot create users; use the account's own keys", {
        errorCode: 'accessDenied.notOwner',
      });
    if (!owner.features.userApi) {
      throw new SandboxError(
        'AccessDeniedException',
        'The User API is not activated for this account; the service operator activates it (spec 8 rule 3)',
        { errorCode: 'accessDenied.userApiNotActivated' },
      );
    }
    req.scopes.forEach((scope, index) => {
      if (!KNOWN_SCOPES.includes(scope))
        throw validationError(`scopes.${index}`, `unknown scope; known: ${KNOWN_SCOPES.join(', ')}`, scope);
    });
    if (req.scopes.includes(DEBIT_CARD_L2) && !owner.features.debitCardL2) {
      throw new SandboxError(
        'AccessDeniedException',
        'DEBIT_CARD_L2 must first be configured for this account by the service operator (spec 8 rule 2)',
        { errorCode: 'accessDenied.scopeNotConfigured' },
      );
    }
    const currencies = blockchainList(req.blockchains, 'blockchains');
    const user: User = {
      id: newId('US'),
      // immediate: the call returns at once and the user is PENDING (docs/provider-contract.md §OP-3).
      status: req.immediate ? 'PENDING' : 'OPEN',
      fields: req.fields,
      depositAddresses: depositAddresses(currencies),
      totalBalances: {},
      availableBalances: {},
      scopes: req.scopes,
      createdAt: ctx.now(),
    };
    state.users[user.id] = { user, ownerAccountId: actor.accountId };
    return user;
  });

  // 4.5
  route(readUser, ({ actor, params }) => userFor(ctx, actor, params.userId!).user);

  // 4.6: the parent account asks about one of its users.
  route(calculateLimits, ({ actor, body: req }) => {
    if (req.accountId !== actor.accountId) {
      throw new SandboxError(
        'AccessDeniedException',
        `accountId ${req.accountId} is not the account making the request (${actor.accountId})`,
        { errorCode: 'accessDenied.notOwner', problematicField: 'accountId' },
      );
    }
    const rec = userFor(ctx, { accountId: actor.accountId, principalId: actor.principalId }, req.userId);
    return limitsFor(ctx, rec, req.address?.country ?? countryOf(ctx, rec));
  });

  // 4.7: a new link on every request, valid 30 minutes; no timestamp needed.
  route(readOnboardingLink, ({ actor, params, publicBase }) => {
    const rec = userFor(ctx, actor, params.userId!);
    const link = newOnboardingLink(ctx, rec.user.id);
    return {
      accountId: rec.user.id,
      verificationApplicantId: link.applicantId,
      verificationLinkUrl: onboardingLinkUrl(publicBase, link),
    };
  });
}
