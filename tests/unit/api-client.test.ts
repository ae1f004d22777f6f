import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiBody, errorText } from '~/shared/api-client';

describe('errorText (message, else details, else the error, else a generic text)', () => {
  it('when the answer has a message, then the message wins', () => {
    const error = new ApiError(
      400,
      {
        success: false,
        message: 'Username already exists',
        details: [{ field: 'username', message: 'other' }],
      },
      'fallback',
    );
    expect(errorText(error)).toBe('Username already exists');
  });

  it("when there is no message but a details list, then the details' messages joined with ', '", () => {
    const error = new ApiError(
      400,
      {
        success: false,
        details: [
          { field: 'a', message: 'First' },
          { field: 'b', message: 'Second' },
        ],
      },
      'fallback',
    );
    expect(errorText(error)).toBe('First, Second');
  });

  it('when details are a text, then that text', () => {
    expect(
      errorText(
        new ApiError(400, { success: false, message: '', details: 'Plain details' }, 'fallback'),
      ),
    ).toBe('Plain details');
  });

  it("when the answer has neither, then the error's own message", () => {
    expect(
      errorText(
        new ApiError(500, { success: false, details: [] }, 'Request failed with status 500'),
      ),
    ).toBe('Request failed with status 500');
    expect(errorText(new ApiError(0, null, 'Network error'))).toBe('Network error');
    expect(errorText(new Error('boom'))).toBe('boom');
  });

  it.each([new Error(''), 'a string', undefined, null, { message: 'not an Error' }])(
    'when given %j, then the generic text',
    (error) => {
      expect(errorText(error)).toBe('An unexpected error occurred');
    },
  );
});

describe('api (session rules)', () => {
  const assign = vi.fn();
  const removeItem = vi.fn();

  function answer(status: number, body: unknown) {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify(body), {
            status,
            headers: { 'Content-Type': 'application/json' },
          }),
      ),
    );
    vi.stubGlobal('window', { location: { assign } });
    vi.stubGlobal('localStorage', { removeItem });
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    assign.mockReset();
    removeItem.mockReset();
  });

  it('when a call succeeds, then its data is returned', async () => {
    answer(200, { success: true, data: { showLocations: false } });
    await expect(api('GET', '/config')).resolves.toEqual({ showLocations: false });
  });

  it('when the answer carries more beside data, then apiBody returns all of it and api only data', async () => {
    const body = {
      success: true,
      data: [1],
      pagination: { currentPage: 1 },
      meta: { cached: true, processingTime: 3 },
    };
    answer(200, body);
    await expect(apiBody('GET', '/receipts')).resolves.toEqual(body);
    await expect(api('GET', '/receipts')).resolves.toEqual([1]);
  });

  it('when apiBody gets a 503 with EXTERNAL_API_ERROR, then an ApiError that is external and no sign-out', async () => {
    answer(503, { success: false, message: 'Server is Busy', errorType: 'EXTERNAL_API_ERROR' });
    const error = await apiBody('GET', '/receipts').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, isExternal: true });
    expect(assign).not.toHaveBeenCalled();
  });

  it('when an ordinary call answers 401, then the stored user is removed and the browser goes to /login', async () => {
    answer(401, {
      success: false,
      message: 'Authentication required',
      errorType: 'AUTHENTICATION_ERROR',
    });
    await expect(api('GET', '/auth/users')).rejects.toMatchObject({
      status: 401,
      message: 'Authentication required',
    });
    expect(removeItem).toHaveBeenCalledWith('user');
    expect(assign).toHaveBeenCalledWith('/login');
  });

  it.each(['/auth/login', '/auth/profile'])(
    'when %s answers 401, then the user stays where they are',
    async (path) => {
      answer(401, {
        success: false,
        message: 'Invalid username or password',
        errorType: 'AUTHENTICATION_ERROR',
      });
      await expect(api('POST', path, {})).rejects.toBeInstanceOf(ApiError);
      expect(assign).not.toHaveBeenCalled();
    },
  );

  it('when a 401 carries EXTERNAL_API_ERROR, then it is no sign-out', async () => {
    answer(401, { success: false, message: 'Server is Busy', errorType: 'EXTERNAL_API_ERROR' });
    const error = await api('GET', '/receipts').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isExternal).toBe(true);
    expect(assign).not.toHaveBeenCalled();
    expect(removeItem).not.toHaveBeenCalled();
  });
});
