// Location risk request validation over HTTP (a real server on 127.0.0.1 over the shared real build): missing and
// out-of-range parameters, a zip outside coverage, the spec fields of a zip and a point answer.
import { describe, expect, it } from 'vitest';
import { serveSharedBuild } from '../../helpers/build.ts';
import { ANSWER_FIELDS } from '../../helpers/location-truth.ts';

describe('location risk validation over HTTP', () => {
  const api = serveSharedBuild('starter', 1000);

  const get = async (q: string): Promise<{ status: number; body: { message?: string; errors?: { field: string; code: string }[] } }> => {
    const r = await api.get(`/v1/location/risk${q}`);
    return { status: r.status, body: (await r.json()) as never };
  };

  it('400 without any parameter, or with only one of lat and lng', async () => {
    const none = await get('');
    expect(none.status).toBe(400);
    expect(none.body.errors).toEqual([expect.objectContaining({ field: 'zip', code: 'required' })]);
    const lngOnly = await get('?lng=-71.1');
    expect(lngOnly.status).toBe(400);
    expect(lngOnly.body.errors).toEqual([expect.objectContaining({ field: 'lat', code: 'required' })]);
    const latOnly = await get('?lat=42.37');
    expect(latOnly.status).toBe(400);
    expect(latOnly.body.errors).toEqual([expect.objectContaining({ field: 'lng', code: 'required' })]);
  });

  it('422 for a latitude or longitude out of range', async () => {
    const lng = await get('?lat=42.37&lng=200');
    expect(lng.status).toBe(422);
    expect(lng.body.errors?.map((e) => e.field)).toContain('lng');
    const lat = await get('?lat=95&lng=-71.1');
    expect(lat.status).toBe(422);
    expect(lat.body.errors?.map((e) => e.field)).toContain('lat');
  });

  it('404 for a well-formed zip outside coverage; 200 with the spec fields for a covered zip and a point', async () => {
    const out = await get('?zip=00000');
    expect(out.status).toBe(404);
    expect(out.body.message).toMatch(/00000 is outside coverage/);
    const zip = await api.get('/v1/location/risk?zip=02143');
    expect(zip.status).toBe(200);
    expect(Object.keys((await zip.json()) as object)).toEqual(ANSWER_FIELDS);
    const point = await api.get('/v1/location/risk?lat=42.3796&lng=-71.0935');
    expect(point.status).toBe(200);
    expect(await point.json()).toMatchObject({ zip_code: '02143', flood_zone: 'D', confidence: 'low' });
  });
});
