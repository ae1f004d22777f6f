/** The fixed warehouse list of the Locations page; all share the company's contact email. */
import { m } from '~/paraglide/messages.js';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const WEEKDAY_NAMES: Record<Weekday, () => string> = {
  Monday: m.locations_monday,
  Tuesday: m.locations_tuesday,
  Wednesday: m.locations_wednesday,
  Thursday: m.locations_thursday,
  Friday: m.locations_friday,
  Saturday: m.locations_saturday,
  Sunday: m.locations_sunday,
};

/** The weekday in the reader's language. */
export const weekdayName = (day: Weekday) => WEEKDAY_NAMES[day]();

export interface Warehouse {
  name: string;
  address: string;
  city: string;
  country: string;
  phone: string | null;
  /** Opening hours per weekday; null when closed. */
  hours: Record<Weekday, string | null>;
}

function mondayToFriday(hours: string): Record<Exclude<Weekday, 'Saturday' | 'Sunday'>, string> {
  return { Monday: hours, Tuesday: hours, Wednesday: hours, Thursday: hours, Friday: hours };
}

export const WAREHOUSES: readonly Warehouse[] = [
  {
    name: 'MIAMI (Doral)',
    address: '8200 NW 25th Street, Suite 110',
    city: 'Doral, FL 33122',
    country: 'United States',
    phone: '+1 (305) 592-4410',
    hours: { ...mondayToFriday('09:00 AM - 04:30 PM'), Saturday: null, Sunday: null },
  },
  {
    name: 'RIDDERKERK',
    address: 'Handelsweg 12',
    city: '2988 DB Ridderkerk',
    country: 'Netherlands',
    phone: null,
    hours: { ...mondayToFriday('10:00 AM - 06:00 PM'), Saturday: '10:00 AM - 05:00 PM', Sunday: null },
  },
  {
    name: 'PARAMARIBO',
    address: 'Industrieweg Noord 24',
    city: 'Paramaribo',
    country: 'Suriname',
    phone: '+597 432-810',
    hours: { ...mondayToFriday('09:00 AM - 05:00 PM'), Saturday: null, Sunday: null },
  },
];

/** A dialable tel: link from a phone number as people write it. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}
