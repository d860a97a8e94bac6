import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, Communication } from '@medplum/fhirtypes';
import { clinicMessagePaths, createdMessage, messagePaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { staffFactories } from '#api-test/staff';
import { fhirR4Validator } from '#api-test/support/fhir-validator';
import { ArchiveLayout } from './archive-layout';
import { DataExportRepository } from './data-export.repository';
import { fhirRecord } from './fhir-bundle';
import { bundleJson } from './fhir-bundle-json';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the data export of messages with the practice', () => {
  it('holds each message as a FHIR Communication of its thread, with the attached items', async () => {
    const factory = factories(t);
    const member = await factory.loggedInMember();
    const ada = await staffFactories(t).loggedInStaff('practitioner');
    const [xray, deleted] = [await factory.oralPhoto(member), await factory.oralPhoto(member)];
    const started = await t.request('POST', messagePaths.threads, {
      token: member.tokens.access,
      body: {
        subject: 'Shadow on X-ray',
        body: 'What is this?',
        attachments: [
          { kind: 'photo', id: xray.id },
          { kind: 'photo', id: deleted.id },
        ],
      },
    });
    const { id } = createdMessage.parse(started.json());
    await t.services.oralPhotos.delete(member.id, deleted.id);
    t.clock.advance(1000);
    expect(
      (await t.request('GET', clinicMessagePaths.thread(id), { token: ada.tokens.access }))
        .statusCode,
    ).toBe(200);
    const reply = await t.request('POST', clinicMessagePaths.thread(id), {
      token: ada.tokens.access,
      body: { body: 'Nothing to fear.' },
    });
    expect(reply.statusCode).toBe(201);

    const record = await new DataExportRepository(t.db).memberRecord(member.id);
    if (record === undefined) throw new Error('no record');
    const fhir = fhirRecord(record, new ArchiveLayout(randomUUID()), {
      exportedAt: t.clock.now(),
      companyName: 'Dental Companion',
      publicUrl: t.config.publicUrl,
      archived: new Map(),
    });
    // No file was archived, so the Bundle carries no Binary to read.
    let json = '';
    const header = { identifier: { value: 'an export' }, timestamp: t.clock.now().toISOString() };
    for await (const piece of bundleJson('collection', fhir, header, () => {
      throw new Error('no file expected');
    })) {
      json += piece;
    }
    const bundle = JSON.parse(json) as Bundle;
    const communications = (bundle.entry ?? [])
      .map((entry) => entry.resource)
      .filter((resource): resource is Communication => resource?.resourceType === 'Communication');
    const [question, answer] = communications;
    expect(communications).toHaveLength(2);
    expect(question).toMatchObject({
      status: 'completed',
      identifier: [
        { value: question?.id },
        { system: `${t.config.publicUrl}/message-thread`, value: id },
      ],
      topic: { text: 'Shadow on X-ray' },
      sender: { reference: `urn:uuid:${member.id}` },
      recipient: [{ display: 'Dental Companion' }],
      payload: [
        { contentString: 'What is this?' },
        { contentReference: { reference: `urn:uuid:${xray.id}` } },
        { contentReference: { display: 'a photo or X-ray, since deleted' } },
      ],
    });
    expect(question?.received).toBeDefined();
    expect(answer).toMatchObject({
      sender: { display: ada.username },
      recipient: [{ reference: `urn:uuid:${member.id}` }],
      inResponseTo: [{ reference: `urn:uuid:${question?.id ?? ''}` }],
      payload: [{ contentString: 'Nothing to fear.' }],
    });
    // HL7's schema accepts them, and every reference names an entry of the Bundle.
    const validate = await fhirR4Validator();
    expect(validate(bundle), JSON.stringify(validate.errors)).toBe(true);
    const fullUrls = new Set(bundle.entry?.map((entry) => entry.fullUrl));
    for (const reference of JSON.stringify(communications).match(/"reference":"[^"]+"/g) ?? []) {
      expect(fullUrls).toContain(reference.slice('"reference":"'.length, -1));
    }
  });
});
