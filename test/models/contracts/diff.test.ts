/**
 * The semantic differ over the public Petstore 3 document and a changed copy (an endpoint
 * removed, a query parameter made required, the Pet status enum narrowed, a new endpoint, a new
 * optional field): one change per endpoint and fact, classed breaking / non-breaking by
 * api-smart-diff's OpenAPI rules, breaking first. A Swagger 2 document is compared after its
 * conversion to OpenAPI 3; templated paths become mock regex paths.
 */
import { describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  compareContracts,
  type ContractChange,
  mockPathOf,
  toOpenApi3,
} from '../../../models/contracts';

const load = (name: string) =>
  JSON.parse(
    readFileSync(path.join(__dirname, '../../fixtures/contracts', name), 'utf8'),
  ) as Record<string, unknown>;

const line = (c: ContractChange) =>
  `${c.breaking ? 'B' : '-'} ${c.endpoint} ${c.kind} ${c.field ? `${c.field} @${c.where}` : c.where}`.trimEnd();

describe('compareContracts', () => {
  test('Petstore 3 → the changed copy: the expected breaking and non-breaking list', async () => {
    const changes = await compareContracts(load('petstore-v1.json'), load('petstore-v2.json'));
    const breaking = changes.filter((c) => c.breaking).map(line);
    expect(breaking.sort()).toEqual([
      'B DELETE /store/order/{orderId} endpoint.removed',
      'B GET /pet/findByStatus parameter.required query parameter status',
      'B POST /pet enum.changed status @request body',
      'B PUT /pet enum.changed status @request body',
    ]);
    expect(
      changes
        .filter((c) => !c.breaking)
        .map(line)
        .sort(),
    ).toEqual([
      '- GET /pet/findByStatus enum.changed [].status @response 200',
      '- GET /pet/findByStatus field.added [].birthDate @response 200',
      '- GET /pet/findByTags enum.changed [].status @response 200',
      '- GET /pet/findByTags field.added [].birthDate @response 200',
      '- GET /pet/{petId} enum.changed status @response 200',
      '- GET /pet/{petId} field.added birthDate @response 200',
      '- GET /pet/{petId}/vaccinations endpoint.added',
      '- POST /pet enum.changed status @response 200',
      '- POST /pet field.added birthDate @request body',
      '- POST /pet field.added birthDate @response 200',
      '- PUT /pet enum.changed status @response 200',
      '- PUT /pet field.added birthDate @request body',
      '- PUT /pet field.added birthDate @response 200',
    ]);
    // Breaking first; the narrowed enum names the value that went.
    expect(changes.slice(0, 4).every((c) => c.breaking)).toBe(true);
    const narrowed = changes.find((c) => c.endpoint === 'POST /pet' && c.kind === 'enum.changed');
    expect(narrowed).toMatchObject({ where: 'request body', removed: ['pending'] });
    expect(changes.find((c) => c.kind === 'parameter.required')?.text).toBe(
      'query parameter status is now required',
    );
  });

  test('the same document has no changes; descriptions alone are not contract changes', async () => {
    const v1 = load('petstore-v1.json');
    expect(await compareContracts(v1, load('petstore-v1.json'))).toEqual([]);
    const reworded = structuredClone(v1) as { info: { description: string } };
    reworded.info.description = 'Another text';
    expect(await compareContracts(v1, reworded)).toEqual([]);
  });

  test('Swagger 2 is converted to OpenAPI 3 and compared the same way', async () => {
    const swagger = (required: boolean) => ({
      swagger: '2.0',
      info: { title: 'Orders', version: required ? '2' : '1' },
      host: 'api.example.com',
      basePath: '/v1',
      paths: {
        '/orders': {
          get: {
            parameters: [{ name: 'limit', in: 'query', type: 'integer', required }],
            responses: {
              200: { description: 'ok', schema: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
    });
    const before = await toOpenApi3(swagger(false));
    expect(String(before.openapi)).toMatch(/^3\./);
    const changes = await compareContracts(before, await toOpenApi3(swagger(true)));
    expect(changes.map(line)).toEqual(['B GET /orders parameter.required query parameter limit']);
    await expect(toOpenApi3({ info: {} })).rejects.toThrow(/Swagger 2 or OpenAPI 3/);
  });

  test('templated paths become whole-segment mock regex paths', () => {
    expect(mockPathOf('/pet/{petId}/uploadImage')).toBe('~/pet/[^/]+/uploadImage');
    expect(mockPathOf('/store/inventory')).toBe('/store/inventory');
    expect(mockPathOf('/v1.0/{id}')).toBe('~/v1\\.0/[^/]+');
  });
});
