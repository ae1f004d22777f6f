/**
 * Once every browser test has run: the SHOW_LOCATIONS=false portal loses the logo and background the
 * layout tests gave it (layout.spec.ts), which they share side by side and so cannot take away themselves.
 */
import { test as teardown } from '@playwright/test';
import { LOCATIONS_OFF_URL } from '../support/e2e-env';
import { adminRequest, expect } from './fixtures';

teardown('the layout tests’ logo and background go again', async ({ playwright }) => {
  const admin = await adminRequest(playwright, LOCATIONS_OFF_URL);
  for (const kind of ['logo', 'background'])
    expect([200, 404]).toContain((await admin.delete(`/api/${kind}/current`)).status());
  await admin.dispose();
});
