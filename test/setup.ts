// Output with dates must not depend on the machine: pin the zone for every test file.
process.env.TZ = 'UTC';
