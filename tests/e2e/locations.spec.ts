import { LOCATIONS_OFF_URL } from '../support/e2e-env';
import { ADMIN, expect, signIn, test, uniqueName } from './fixtures';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

test('lists the three warehouses with contact links and open hours', async ({ page, adminApi }) => {
  const user = await adminApi.createUser({
    username: uniqueName('loc'),
    password: 'user-password',
    role: 'viewer',
  });
  await signIn(page, user.username, 'user-password');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Locations' })
    .click();
  await expect(page).toHaveURL(/\/locations$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Locations');
  await expect(page.getByText(/warehouses worldwide/)).toBeVisible();

  const cards = page.getByRole('main').getByRole('listitem');
  await expect(cards).toHaveCount(3);
  const card = (name: string) =>
    cards.filter({ has: page.getByRole('heading', { name, exact: true }) });

  const expectations = [
    {
      name: 'MIAMI (Doral)',
      country: 'United States',
      phone: true,
      monday: '09:00 AM - 04:30 PM',
      saturday: 'Closed',
    },
    {
      name: 'RIDDERKERK',
      country: 'Netherlands',
      phone: false,
      monday: '10:00 AM - 06:00 PM',
      saturday: '10:00 AM - 05:00 PM',
    },
    {
      name: 'PARAMARIBO',
      country: 'Suriname',
      phone: true,
      monday: '09:00 AM - 05:00 PM',
      saturday: 'Closed',
    },
  ];
  for (const expected of expectations) {
    const warehouse = card(expected.name);
    await expect(warehouse, expected.name).toHaveCount(1);
    await expect(warehouse.locator('address')).toContainText(expected.country);
    await expect(warehouse.getByRole('link', { name: /@/ })).toHaveAttribute(
      'href',
      /^mailto:[^@\s]+@[^@\s]+$/,
    );
    await expect(warehouse.locator('a[href^="tel:"]')).toHaveCount(expected.phone ? 1 : 0);
    await expect(warehouse.getByText('OPEN HOURS')).toBeVisible();
    for (const day of WEEKDAYS)
      await expect(warehouse.getByText(day, { exact: true })).toBeVisible();
    await expect(warehouse.getByText(expected.monday, { exact: true })).toHaveCount(5);
    await expect(warehouse.locator('dt', { hasText: 'Saturday' }).locator('+ dd')).toHaveText(
      expected.saturday,
    );
    await expect(warehouse.locator('dt', { hasText: 'Sunday' }).locator('+ dd')).toHaveText(
      'Closed',
    );
  }

  await expect(card('MIAMI (Doral)').locator('a[href^="tel:"]')).toHaveAttribute(
    'href',
    /^tel:\+\d{6,}$/,
  );

  const closed = card('RIDDERKERK').getByText('Closed', { exact: true });
  const open = card('RIDDERKERK').getByText('10:00 AM - 05:00 PM', { exact: true });
  await expect(closed).toHaveClass(/text-error/);
  const colour = (cell: typeof closed) =>
    cell.evaluate((element) => getComputedStyle(element).color);
  expect(await colour(closed)).not.toBe(await colour(open));
});

test.describe('with SHOW_LOCATIONS=false', () => {
  test.use({ baseURL: LOCATIONS_OFF_URL });

  test('the menu has no Locations entry and /locations answers 404', async ({ page }) => {
    await signIn(page, ADMIN.username, ADMIN.password);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('link', { name: 'Receipts' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Locations' })).toHaveCount(0);
    const response = await page.goto('/locations');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Our Locations' })).toHaveCount(0);
  });
});

test.describe('in Dutch', () => {
  test.use({ locale: 'nl-NL' });

  test('the hours are written the Dutch way, the countries named in Dutch, and the menu names the page as its title does', async ({
    page,
    adminApi,
    baseURL,
  }) => {
    const user = await adminApi.createUser({
      username: uniqueName('loc'),
      password: 'user-password',
      role: 'viewer',
    });
    const signedIn = await page.request.post('/api/auth/login', {
      data: { username: user.username, password: 'user-password' },
      headers: { Origin: baseURL! },
    });
    expect(signedIn.status()).toBe(200);
    await page.goto('/dashboard');
    await page
      .getByRole('navigation', { name: 'Hoofdmenu' })
      .getByRole('link', { name: 'Vestigingen' })
      .click();
    await expect(page).toHaveURL(/\/locations$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Onze vestigingen');
    const card = (name: string) =>
      page
        .getByRole('main')
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name, exact: true }) });
    await expect(card('MIAMI (Doral)').locator('address')).toContainText('Verenigde Staten');
    await expect(card('MIAMI (Doral)').getByText('09:00 - 16:30', { exact: true })).toHaveCount(5);
    await expect(card('RIDDERKERK').locator('address')).toContainText('Nederland');
    await expect(
      card('RIDDERKERK').locator('dt', { hasText: 'Zaterdag' }).locator('+ dd'),
    ).toHaveText('10:00 - 17:00');
    await expect(card('PARAMARIBO').locator('address')).toContainText('Suriname');
  });
});
