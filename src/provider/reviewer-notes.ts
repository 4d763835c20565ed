// The reviewer notes of docs/provider-contract.md §2.3, by the profile field they concern. The sandbox writes them;
// the KYC process maps them to what a person must do.

export const REVIEWER_NOTES = {
  'identity.fullColor': { field: 'individualGovernmentId', text: 'Full color is needed' },
  'identity.blurry': { field: 'individualGovernmentId', text: 'Image is blurry or hard to read' },
  'identity.fourCorners': { field: 'individualGovernmentId', text: 'All four corners must be shown' },
  'identity.documentRequired': {
    field: 'individualGovernmentId',
    text: "A passport, driver's license or government-issued document is required",
  },
  'identity.unsupportedType': { field: 'individualGovernmentId', text: 'Document type unsupported' },
  'identity.expired': { field: 'individualGovernmentId', text: 'Document expired' },
  'address.translationNeeded': { field: 'individualProofOfAddress', text: 'A translated copy is needed' },
  'address.mismatch': {
    field: 'individualProofOfAddress',
    text: 'Utility bill or bank statement does not match profile address',
  },
  'address.matchingBillNeeded': { field: 'individualProofOfAddress', text: 'A matching utility bill is needed' },
  'address.allPagesNeeded': { field: 'individualProofOfAddress', text: 'All pages of the bank statement are needed' },
  'ssn.invalid': { field: 'individualSsn', text: 'A valid social security number is required' },
  'sourceOfFunds.additionalInformation': {
    field: 'individualSourceOfFunds',
    text: 'Additional information is required',
  },
  'sourceOfFunds.underReview': { field: 'individualSourceOfFunds', text: 'Payment method is under review' },
} as const;

export type ReviewerNoteKey = keyof typeof REVIEWER_NOTES;
export const reviewerNoteKeys = Object.keys(REVIEWER_NOTES) as ReviewerNoteKey[];
