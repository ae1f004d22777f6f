import { afterEach, describe, expect, it } from 'vitest';
import { m } from '~/paraglide/messages.js';
import {
  BACKGROUND_UPLOAD,
  LOGO_UPLOAD,
  isCardOpacity,
  opacityPayloadSchema,
  pickedFileProblem,
  roundCardOpacity,
} from '~/shared/branding';
import { formatSizeLimit } from '~/shared/format';
import { readMessagesIn, restoreLocale } from '../support/messages-locale';

const MB = 1024 * 1024;

describe('isCardOpacity (0.1 to 1 in steps of 0.05)', () => {
  it.each([0.1, 0.15, 0.35, 0.5, 0.9, 0.95, 1, 0.1 + 0.2, 0.7 * 0.5])(
    'when the value is %s, then it is accepted',
    (value) => {
      expect(isCardOpacity(value)).toBe(true);
    },
  );

  it.each([0.05, 0, -0.5, 1.05, 1.5, 0.33, 0.123, Number.NaN, Number.POSITIVE_INFINITY])(
    'when the value is %s, then it is refused',
    (value) => {
      expect(isCardOpacity(value)).toBe(false);
    },
  );
});

describe('roundCardOpacity', () => {
  it('when a step comes with floating-point noise, then it is stored exactly on the step', () => {
    expect(roundCardOpacity(0.1 + 0.2 + 0.05)).toBe(0.35);
    expect(roundCardOpacity(0.8999999999)).toBe(0.9);
  });
});

describe('opacityPayloadSchema', () => {
  it('when the opacity is a number on a step, then it parses', () => {
    expect(opacityPayloadSchema.parse({ opacity: 0.35 })).toEqual({ opacity: 0.35 });
  });

  it.each([{ opacity: 'abc' }, { opacity: '0.5' }, { opacity: null }, {}, { opacity: 1.5 }])(
    'when the payload is %j, then the one clear message',
    (payload) => {
      const result = opacityPayloadSchema.safeParse(payload);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'Opacity must be a number from 0.1 to 1 in steps of 0.05',
      ]);
    },
  );
});

describe('pickedFileProblem (the browser check before sending)', () => {
  it.each([
    ['a PNG', { type: 'image/png', size: 5_000 }, null],
    ['a JPEG of exactly 1 MB', { type: 'image/jpeg', size: MB }, null],
    ['a text file', { type: 'text/plain', size: 10 }, 'Please select an image file'],
    ['a file of unknown type', { type: '', size: 10 }, 'Please select an image file'],
    ['a PNG over 1 MB', { type: 'image/png', size: MB + 1 }, 'File size must be less than 1MB'],
    [
      'an SVG',
      { type: 'image/svg+xml', size: 500 },
      'Only JPEG, PNG, GIF, and WebP files are allowed',
    ],
    ['a BMP', { type: 'image/bmp', size: 500 }, 'Only JPEG, PNG, GIF, and WebP files are allowed'],
  ])('when the logo picked is %s, then %s', (_case, file, problem) => {
    expect(pickedFileProblem(file, LOGO_UPLOAD)).toBe(problem);
  });

  it.each([
    ['a 3 MB WebP', { type: 'image/webp', size: 3 * MB }, null],
    ['a GIF over 4 MB', { type: 'image/gif', size: 4 * MB + 1 }, 'File size must be less than 4MB'],
    ['a PDF', { type: 'application/pdf', size: 100 }, 'Please select a valid image file'],
    ['an SVG', { type: 'image/svg+xml', size: 500 }, 'Please select a valid image file'],
  ])('when the background picked is %s, then %s', (_case, file, problem) => {
    expect(pickedFileProblem(file, BACKGROUND_UPLOAD)).toBe(problem);
  });
});

describe('the size limits the texts state', () => {
  afterEach(restoreLocale);

  it('when a picked file is too large, then the text states the limit of its rule, word for word as the spec gives it in English', () => {
    expect(LOGO_UPLOAD.tooLarge()).toBe('File size must be less than 1MB');
    expect(BACKGROUND_UPLOAD.tooLarge()).toBe('File size must be less than 4MB');
    for (const rules of [LOGO_UPLOAD, BACKGROUND_UPLOAD])
      expect(pickedFileProblem({ type: 'image/png', size: rules.maxBytes + 1 }, rules)).toContain(
        formatSizeLimit(rules.maxBytes),
      );
  });

  it("when the background's hint states its limit, then in English it reads as the spec gives it", () => {
    expect(
      m.branding_upload_background_hint({ max: formatSizeLimit(BACKGROUND_UPLOAD.maxBytes) }),
    ).toBe('Supported formats: JPG, PNG, GIF, WebP. Maximum size: 4MB.');
  });

  it('when the reader is Dutch, then the limit is written the Dutch way', () => {
    readMessagesIn('nl');
    expect(LOGO_UPLOAD.tooLarge()).toBe('Het bestand moet kleiner zijn dan 1 MB');
    expect(BACKGROUND_UPLOAD.tooLarge()).toBe('Het bestand moet kleiner zijn dan 4 MB');
  });
});
