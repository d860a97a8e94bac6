import type { OrderStatus } from '@dental/contracts';

/** Dark shades: lighter ones fall short of the contrast ratio in small text (axe). */
export const orderStatusBadges: Record<OrderStatus, { label: string; color: string }> = {
  pending: { label: 'Awaiting payment', color: 'orange.9' },
  paid: { label: 'Paid', color: 'teal.9' },
  cancelled: { label: 'Cancelled', color: 'gray.8' },
};
