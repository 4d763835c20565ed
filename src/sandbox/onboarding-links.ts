import type { SandboxContext } from './context.js';
import { newHex, newId } from './ids.js';
import type { OnboardingLinkRecord } from './store.js';

/** docs/provider-contract.md §4.7 and §8: an onboarding link lives 30 minutes; a new one on every request. */
export const ONBOARDING_LINK_TTL_MS = 30 * 60_000;

/** A new onboarding link for `userId`: the provider's call (§4.7) and the checkout page's banner make them. */
export function newOnboardingLink(ctx: SandboxContext, userId: string): OnboardingLinkRecord {
  const link = { token: newHex(16), userId, applicantId: newId('VA'), expiresAt: ctx.now() + ONBOARDING_LINK_TTL_MS };
  ctx.store.state.onboardingLinks[link.token] = link;
  return link;
}

/** Where the end user opens `link`, on the sandbox's public address. */
export const onboardingLinkUrl = (publicBase: string, link: OnboardingLinkRecord) =>
  `${publicBase}/sandbox/idverify/${link.token}`;
