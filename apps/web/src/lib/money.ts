import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { centsPerPoint } from '@dental/contracts';
import { dateFormat } from './dates';

dayjs.extend(utc);

/** US cents as prices are written: $59.99. */
export const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export const pointsText = (points: number) =>
  `${points.toLocaleString('en-US')} ${points === 1 ? 'point' : 'points'}`;

/** What `points` take off a price. */
export const pointsValue = (points: number) => usd(points * centsPerPoint);

/** Points expire at the end of a year in UTC; that calendar day is shown everywhere. */
export const pointsExpiryText = (at: string | null) =>
  at === null ? 'None' : dayjs.utc(at).format(dateFormat);
