/**
 * SWR keys (the API paths) of data that more than one part of the shell reads or refreshes: the
 * booking page and the automatic booking update the patient's appointment and the booked slots.
 */
export const CURRENT_DATE_PATH = '/dates/currentDate';
export const BOOKED_DATES_PATH = '/dates/booked';
