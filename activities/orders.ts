import type { ProviderClient } from '../src/provider/client.js';
import { readOrder, readReservation, reserveOrder } from '../src/provider/endpoints.js';
import type { ReservationRequest } from '../src/provider/schemas/reservation.js';
import { withProviderFailures } from './provider-failure.js';

export function createOrderActivities({ provider }: { provider: ProviderClient }) {
  return withProviderFailures({
    /** docs/provider-contract.md §4.3: the reservation and the hosted page's URL; the key makes a retry reserve once. */
    async reserve(input: { request: ReservationRequest; idempotencyKey: string }) {
      return provider.call(reserveOrder, { body: input.request, idempotencyKey: input.idempotencyKey });
    },

    async readReservationState(input: { reservation: string }) {
      const reservation = await provider.call(readReservation, { params: { reservationId: input.reservation } });
      return { status: reservation.status, orderId: reservation.orderId, expiresAt: reservation.expiresAt };
    },

    async readOrderState(input: { orderId: string }) {
      const order = await provider.call(readOrder, { params: { orderId: input.orderId } });
      return {
        status: order.status,
        transferId: order.transferId,
        failureReason: order.failureReason,
        sourceAmount: order.sourceAmount,
        sourceCurrency: order.sourceCurrency,
      };
    },
  });
}

export type OrderActivities = ReturnType<typeof createOrderActivities>;
