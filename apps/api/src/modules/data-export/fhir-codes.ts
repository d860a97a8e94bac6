import type { CodeableConcept, Coding } from '@medplum/fhirtypes';

// The profiles and code systems of the export's FHIR (docs/decisions/fhir-export.md).

const usCore = (name: string) =>
  `http://hl7.org/fhir/us/core/StructureDefinition/${name}|6.1.0` as const;

/** US Core 6.1 profiles, by the resource that claims them in `meta.profile`. */
export const usCoreProfiles = {
  Patient: usCore('us-core-patient'),
  Practitioner: usCore('us-core-practitioner'),
  Organization: usCore('us-core-organization'),
  DocumentReference: usCore('us-core-documentreference'),
  DiagnosticReport: usCore('us-core-diagnosticreport-note'),
  Observation: usCore('us-core-observation-clinical-result'),
} as const;

export const systems = {
  loinc: 'http://loinc.org',
  snomed: 'http://snomed.info/sct',
  dicom: 'http://dicom.nema.org/resources/ontology/DCM',
  /** HL7's code system for FDI (ISO 3950) tooth numbers. */
  fdiTooth: 'http://terminology.hl7.org/CodeSystem/ex-tooth',
  observationCategory: 'http://terminology.hl7.org/CodeSystem/observation-category',
  documentCategory: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category',
  mediaType: 'http://terminology.hl7.org/CodeSystem/media-type',
  ucum: 'http://unitsofmeasure.org',
  dataAbsentReason: 'http://terminology.hl7.org/CodeSystem/data-absent-reason',
  deviceNameType: 'http://hl7.org/fhir/device-nametype',
} as const;

export const concept = (system: string, code: string, display: string): CodeableConcept => ({
  coding: [{ system, code, display }],
  text: display,
});

/** LOINC: a member's medical or insurance record, and an imaging report. */
export const medicalRecordsType = concept(systems.loinc, '11503-0', 'Medical records');
export const imagingReportCode = concept(systems.loinc, '18748-4', 'Diagnostic imaging study');
/** US Core's DiagnosticReport category for imaging reports: LOINC's Radiology part. */
export const radiologyCategory = concept(systems.loinc, 'LP29684-5', 'Radiology');
export const clinicalNoteCategory = concept(
  systems.documentCategory,
  'clinical-note',
  'Clinical Note',
);
export const imagingCategory = concept(systems.observationCategory, 'imaging', 'Imaging');

/** DICOM modalities: a colour photo, a panoramic X-ray, and an X-ray whose kind the record does
 *  not hold (digital radiography). */
export const modalities = {
  photo: { system: systems.dicom, code: 'XC', display: 'External-camera Photography' },
  panoramic: { system: systems.dicom, code: 'PX', display: 'Panoramic X-Ray' },
  xray: { system: systems.dicom, code: 'DX', display: 'Digital Radiography' },
} satisfies Record<string, Coding>;

/**
 * SNOMED CT for the Dental AI classes and a dentist's labels that have one: caries (the photo
 * models' 'Cavity' too), and the wisdom-teeth model's 'Impacted Tooth', a third molar, as
 * 'Impacted molars'. Other labels (a filling, an implant) stay text.
 */
const findingCodes: Record<string, Coding> = {
  caries: { system: systems.snomed, code: '80967001', display: 'Dental caries' },
  cavity: { system: systems.snomed, code: '80967001', display: 'Dental caries' },
  'impacted tooth': { system: systems.snomed, code: '196416002', display: 'Impacted molars' },
};

/** A finding's label as a concept: coded when SNOMED CT has it, the label as its text. */
export function findingConcept(label: string): CodeableConcept {
  const coding = findingCodes[label.trim().toLowerCase()];
  return coding === undefined ? { text: label } : { coding: [coding], text: label };
}

/** The corner coordinates of a box, in pixels of its image (docs/decisions/fhir-export.md). */
export const boxCorners = ['xmin', 'ymin', 'xmax', 'ymax'] as const;
