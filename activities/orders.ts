import type { ProviderClient } from '../src/provider/client.js';
import { readOrder, readReservation, reserveOrder } from '../src/provider/endpoints.js';
import type { ReservationRequest } from '../src/provider/schemas/reservation.js';
import { withProviderFailures } from './provider-failure.js';

export function createOrderActivities({ provider }: { provider: ProviderClient }) {
  return withProviderFailures({
    /** Spec 4.3: the reservation and the hosted page's URL; the key makes a retry reserve once. */
    async reserve(input: { request: ReservationRequest; idempotencyKey: string }) {
      return provider.call(reserveOrder, { body: input.request, idempotencyKey: input.idempotencyKey });
    },

    async readReservationState(input: { reservation: string }) {
      const r = await provider.call(readReservation, { params: { reservationId: input.reservation } });
      return { status: r.status, orderId: r.orderId, expiresAt: r.expiresAt };
    },

    async readOrderState(input: { orderId: string }) {
      const o = await provider.call(readOrder, { params: { orderId: input.orderId } });
      return { status: o.status, transferId: o.transferId, failureReason: o.failureReason, sourceAmount: o.sourceAmount, sourceCurrency: o.sourceCurrency };
    },
  });
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
