/** The fixed warehouse list of the Locations page; all share the company's contact email. */
import { m } from '~/paraglide/messages.js';
import { formatTimeOfDay } from './format';

export const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;
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

/** Opening and closing, 24-hour 'HH:MM': shown in the reader's way (formatTimeOfDay). */
export interface OpenHours {
  opens: string;
  closes: string;
}

export interface Warehouse {
  name: string;
  address: string;
  city: string;
  /** ISO 3166 code: the page names the country in the reader's language (formatCountry). */
  countryCode: string;
  phone: string | null;
  /** Opening hours per weekday; null when closed. */
  hours: Record<Weekday, OpenHours | null>;
}

function mondayToFriday(
  hours: OpenHours,
): Record<Exclude<Weekday, 'Saturday' | 'Sunday'>, OpenHours> {
  return { Monday: hours, Tuesday: hours, Wednesday: hours, Thursday: hours, Friday: hours };
}

export const WAREHOUSES: readonly Warehouse[] = [
  {
    name: 'MIAMI (Doral)',
    address: '8200 NW 25th Street, Suite 110',
    city: 'Doral, FL 33122',
    countryCode: 'US',
    phone: '+1 (305) 592-4410',
    hours: { ...mondayToFriday({ opens: '09:00', closes: '16:30' }), Saturday: null, Sunday: null },
  },
  {
    name: 'RIDDERKERK',
    address: 'Handelsweg 12',
    city: '2988 DB Ridderkerk',
    countryCode: 'NL',
    phone: null,
    hours: {
      ...mondayToFriday({ opens: '10:00', closes: '18:00' }),
      Saturday: { opens: '10:00', closes: '17:00' },
      Sunday: null,
    },
  },
  {
    name: 'PARAMARIBO',
    address: 'Industrieweg Noord 24',
    city: 'Paramaribo',
    countryCode: 'SR',
    phone: '+597 432-810',
    hours: { ...mondayToFriday({ opens: '09:00', closes: '17:00' }), Saturday: null, Sunday: null },
  },
];

/** A dialable tel: link from a phone number as people write it. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}

/** '09:00 AM - 04:30 PM' (en), '09:00 - 16:30' (nl). */
export const openHoursText = ({ opens, closes }: OpenHours) =>
  `${formatTimeOfDay(opens)} - ${formatTimeOfDay(closes)}`;
