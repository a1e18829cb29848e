/**
 * The unit table: exact conversion factors, hand-written from NIST Special Publication 811 (2008),
 * "Guide for the Use of the International System of Units", Appendix B.8 (factors listed
 * alphabetically) and B.9 (by kind of quantity). Where SP 811 prints a factor rounded to 7 digits
 * (non-bold), the exact value is derived from the definitions SP 811 gives (1 in = 0.0254 m,
 * 1 lb = 0.453 592 37 kg, g_n = 9.806 65 m/s², 1 gal = 231 in³ ...) and the derivation is shown.
 * convert-units was checked and is inexact, hence this table.
 *
 * A factor is an exact expression of decimals joined by `*` and `/` (no parentheses): the value of
 * one unit in the category's base unit. Temperatures also have an `offset`: base = (v + offset) · factor.
 * Order matters: a conversion without `to` lists the units in table order.
 */

/** One unit: lowercase ASCII id, proper symbol, exact factor to the base unit. */
export interface UnitDefinition {
  readonly id: string;
  readonly symbol: string;
  readonly factor: string;
  readonly offset?: string;
}

/** The categories of the contract, in its order. */
export const CATEGORY_NAMES = ['length', 'mass', 'temperature', 'volume', 'area', 'speed', 'time', 'data', 'pressure', 'energy'] as const;
export type CategoryName = (typeof CATEGORY_NAMES)[number];

export const UNITS: Readonly<Record<CategoryName, readonly UnitDefinition[]>> = {
  // Base: metre.
  length: [
    { id: 'm', symbol: 'm', factor: '1' }, // SI base unit
    { id: 'km', symbol: 'km', factor: '1000' }, // SI prefix kilo = 10^3 (SP 811 §4.3, Table 5)
    { id: 'cm', symbol: 'cm', factor: '0.01' }, // SI prefix centi = 10^-2
    { id: 'mm', symbol: 'mm', factor: '0.001' }, // SI prefix milli = 10^-3
    { id: 'um', symbol: 'µm', factor: '0.000001' }, // SI prefix micro = 10^-6 (B.8 "micron" = 1.0 E-06 m)
    { id: 'nm', symbol: 'nm', factor: '0.000000001' }, // SI prefix nano = 10^-9
    { id: 'mi', symbol: 'mi', factor: '1609.344' }, // B.8 mile (international) = 1.609 344 E+03 m, exact
    { id: 'yd', symbol: 'yd', factor: '0.9144' }, // B.8 yard = 9.144 E-01 m, exact
    { id: 'ft', symbol: 'ft', factor: '0.3048' }, // B.8 foot = 3.048 E-01 m, exact
    { id: 'in', symbol: 'in', factor: '0.0254' }, // B.8 inch = 2.54 E-02 m, exact
    { id: 'nmi', symbol: 'nmi', factor: '1852' }, // B.8 mile, nautical = 1.852 E+03 m, exact
  ],
  // Base: kilogram.
  mass: [
    { id: 'kg', symbol: 'kg', factor: '1' }, // SI base unit
    { id: 'g', symbol: 'g', factor: '0.001' }, // B.8 gram = 1.0 E-03 kg, exact
    { id: 'mg', symbol: 'mg', factor: '0.000001' }, // SI prefix milli on the gram
    { id: 'ug', symbol: 'µg', factor: '0.000000001' }, // SI prefix micro on the gram
    { id: 't', symbol: 't', factor: '1000' }, // B.8 ton, metric (t) = 1.0 E+03 kg, exact
    { id: 'lb', symbol: 'lb', factor: '0.45359237' }, // B.8 pound (avoirdupois) = 4.535 924 E-01 kg; exact by definition 0.453 592 37 kg
    { id: 'oz', symbol: 'oz', factor: '0.45359237/16' }, // B.8 ounce (avoirdupois) = 2.834 952 E-02 kg; exact = lb/16 = 0.028 349 523 125 kg
    { id: 'st', symbol: 'st', factor: '14*0.45359237' }, // stone = 14 lb (UK Weights and Measures Act 1985; not in SP 811) with SP 811's pound: 6.350 293 18 kg
  ],
  // Base: kelvin. B.8: T/K = t/°C + 273.15; T/K = (t/°F + 459.67)/1.8; T/K = (T/°R)/1.8.
  temperature: [
    { id: 'c', symbol: '°C', factor: '1', offset: '273.15' }, // B.8 degree Celsius: T/K = t/°C + 273.15, exact
    { id: 'f', symbol: '°F', factor: '5/9', offset: '459.67' }, // B.8 degree Fahrenheit: T/K = (t/°F + 459.67)/1.8, exact
    { id: 'k', symbol: 'K', factor: '1' }, // SI base unit
    { id: 'r', symbol: '°R', factor: '5/9' }, // B.8 degree Rankine: T/K = (T/°R)/1.8, exact
  ],
  // Base: cubic metre. US customary units unless marked uk.
  volume: [
    { id: 'l', symbol: 'L', factor: '0.001' }, // B.8 liter (L) = 1.0 E-03 m³, exact
    { id: 'ml', symbol: 'mL', factor: '0.000001' }, // SI prefix milli on the liter
    { id: 'cl', symbol: 'cL', factor: '0.00001' }, // SI prefix centi on the liter
    { id: 'dl', symbol: 'dL', factor: '0.0001' }, // SI prefix deci on the liter
    { id: 'm3', symbol: 'm³', factor: '1' }, // SI derived unit
    { id: 'cm3', symbol: 'cm³', factor: '0.000001' }, // B.8 cubic centimeter = 1.0 E-06 m³, exact
    { id: 'gal', symbol: 'gal', factor: '0.003785411784' }, // B.8 gallon (U.S.) = 3.785 412 E-03 m³; exact = 231 in³ = 231 × 0.0254³
    { id: 'galuk', symbol: 'gal (UK)', factor: '0.00454609' }, // B.8 gallon [Canadian and U.K. (Imperial)] = 4.546 09 E-03 m³, exact
    { id: 'qt', symbol: 'qt', factor: '0.003785411784/4' }, // B.8 quart (U.S. liquid) = 9.463 529 E-04 m³; exact = gal/4
    { id: 'pt', symbol: 'pt', factor: '0.003785411784/8' }, // B.8 pint (U.S. liquid) = 4.731 765 E-04 m³; exact = gal/8
    { id: 'cup', symbol: 'cup', factor: '0.003785411784/16' }, // B.8 cup (U.S.) = 2.365 882 E-04 m³; exact = gal/16
    { id: 'floz', symbol: 'fl oz', factor: '0.003785411784/128' }, // B.8 ounce (U.S. fluid) = 2.957 353 E-05 m³; exact = gal/128
    { id: 'tbsp', symbol: 'tbsp', factor: '0.003785411784/256' }, // B.8 tablespoon = 1.478 676 E-05 m³; exact = fl oz/2
    { id: 'tsp', symbol: 'tsp', factor: '0.003785411784/768' }, // B.8 teaspoon = 4.928 922 E-06 m³; exact = fl oz/6
  ],
  // Base: square metre.
  area: [
    { id: 'm2', symbol: 'm²', factor: '1' }, // SI derived unit
    { id: 'km2', symbol: 'km²', factor: '1000000' }, // (10^3 m)²
    { id: 'cm2', symbol: 'cm²', factor: '0.0001' }, // (10^-2 m)²
    { id: 'mm2', symbol: 'mm²', factor: '0.000001' }, // (10^-3 m)²
    { id: 'ha', symbol: 'ha', factor: '10000' }, // B.8 hectare = 1.0 E+04 m², exact
    { id: 'a', symbol: 'a', factor: '100' }, // B.8 are = 1.0 E+02 m², exact
    { id: 'ac', symbol: 'ac', factor: '43560*0.09290304' }, // acre = 43 560 ft² with B.8 square foot (international foot): 4 046.856 422 4 m²
    { id: 'ft2', symbol: 'ft²', factor: '0.09290304' }, // B.8 square foot = 9.290 304 E-02 m², exact
    { id: 'in2', symbol: 'in²', factor: '0.00064516' }, // B.8 square inch = 6.4516 E-04 m², exact
    { id: 'yd2', symbol: 'yd²', factor: '0.83612736' }, // B.8 square yard = 8.361 274 E-01 m²; exact = 0.9144²
    { id: 'mi2', symbol: 'mi²', factor: '2589988.110336' }, // B.8 square mile = 2.589 988 E+06 m²; exact = 1609.344²
  ],
  // Base: metre per second.
  speed: [
    { id: 'mps', symbol: 'm/s', factor: '1' }, // SI derived unit
    { id: 'kmh', symbol: 'km/h', factor: '1000/3600' }, // B.8 kilometer per hour = 2.777 778 E-01 m/s; exact = 1000/3600
    { id: 'mph', symbol: 'mi/h', factor: '0.44704' }, // B.8 mile per hour = 4.4704 E-01 m/s, exact
    { id: 'kn', symbol: 'kn', factor: '1852/3600' }, // B.8 knot = 5.144 444 E-01 m/s; exact = 1852/3600
    { id: 'fps', symbol: 'ft/s', factor: '0.3048' }, // B.8 foot per second = 3.048 E-01 m/s, exact
  ],
  // Base: second. The year is the Gregorian mean year of 365.2425 days (issue 4), a month 1/12 of it.
  time: [
    { id: 'ns', symbol: 'ns', factor: '0.000000001' }, // SI prefix nano
    { id: 'us', symbol: 'µs', factor: '0.000001' }, // SI prefix micro
    { id: 'ms', symbol: 'ms', factor: '0.001' }, // SI prefix milli
    { id: 's', symbol: 's', factor: '1' }, // SI base unit
    { id: 'min', symbol: 'min', factor: '60' }, // B.8 minute = 6.0 E+01 s, exact
    { id: 'h', symbol: 'h', factor: '3600' }, // B.8 hour = 3.6 E+03 s, exact
    { id: 'd', symbol: 'd', factor: '86400' }, // B.8 day = 8.64 E+04 s, exact
    { id: 'wk', symbol: 'wk', factor: '7*86400' }, // 7 days of B.8: 604 800 s
    { id: 'mo', symbol: 'mo', factor: '365.2425*86400/12' }, // 1/12 Gregorian year: 2 629 746 s
    { id: 'yr', symbol: 'yr', factor: '365.2425*86400' }, // Gregorian year = 365.2425 B.8 days: 31 556 952 s
  ],
  // Base: bit. SP 811 has no data units; prefixes from SP 811 §4.3 (decimal) and IEC 80000-13 as
  // adopted by NIST (https://physics.nist.gov/cuu/Units/binary.html) for the binary ones; 1 B = 8 bit.
  data: [
    { id: 'bit', symbol: 'bit', factor: '1' },
    { id: 'b', symbol: 'B', factor: '8' },
    { id: 'kb', symbol: 'kB', factor: '8*1000' },
    { id: 'mb', symbol: 'MB', factor: '8*1000000' },
    { id: 'gb', symbol: 'GB', factor: '8*1000000000' },
    { id: 'tb', symbol: 'TB', factor: '8*1000000000000' },
    { id: 'pb', symbol: 'PB', factor: '8*1000000000000000' },
    { id: 'kib', symbol: 'KiB', factor: '8*1024' },
    { id: 'mib', symbol: 'MiB', factor: '8*1048576' },
    { id: 'gib', symbol: 'GiB', factor: '8*1073741824' },
    { id: 'tib', symbol: 'TiB', factor: '8*1099511627776' },
    { id: 'pib', symbol: 'PiB', factor: '8*1125899906842624' },
  ],
  // Base: pascal.
  pressure: [
    { id: 'pa', symbol: 'Pa', factor: '1' }, // SI derived unit
    { id: 'hpa', symbol: 'hPa', factor: '100' }, // SI prefix hecto
    { id: 'kpa', symbol: 'kPa', factor: '1000' }, // SI prefix kilo
    { id: 'mpa', symbol: 'MPa', factor: '1000000' }, // SI prefix mega
    { id: 'bar', symbol: 'bar', factor: '100000' }, // B.8 bar = 1.0 E+05 Pa, exact
    { id: 'mbar', symbol: 'mbar', factor: '100' }, // B.8 millibar = 1.0 E+02 Pa, exact
    { id: 'atm', symbol: 'atm', factor: '101325' }, // B.8 atmosphere, standard = 1.013 25 E+05 Pa, exact
    // B.8 pound-force per square inch = 6.894 757 E+03 Pa; exact = lb · g_n / in² (B.8 pound-force = lb × 9.806 65 m/s²)
    { id: 'psi', symbol: 'psi', factor: '0.45359237*9.80665/0.00064516' },
    { id: 'torr', symbol: 'Torr', factor: '101325/760' }, // B.8 torr = 1.333 224 E+02 Pa; exact = atm/760
    // B.8 millimeter of mercury, conventional = 1.333 224 E+02 Pa; exact = 13 595.1 kg/m³ × 0.001 m × g_n (SP 811 footnote)
    { id: 'mmhg', symbol: 'mmHg', factor: '13595.1*0.001*9.80665' },
  ],
  // Base: joule.
  energy: [
    { id: 'j', symbol: 'J', factor: '1' }, // SI derived unit
    { id: 'kj', symbol: 'kJ', factor: '1000' }, // SI prefix kilo
    { id: 'mj', symbol: 'MJ', factor: '1000000' }, // SI prefix mega (mJ, millijoule, is not offered)
    { id: 'wh', symbol: 'W·h', factor: '3600' }, // B.8 watt hour = 3.6 E+03 J, exact
    { id: 'kwh', symbol: 'kW·h', factor: '3600000' }, // B.8 kilowatt hour = 3.6 E+06 J, exact
    { id: 'cal', symbol: 'cal', factor: '4.184' }, // B.8 calorie_th (thermochemical) = 4.184 J, exact
    { id: 'kcal', symbol: 'kcal', factor: '4184' }, // B.8 kilocalorie_th = 4.184 E+03 J, exact
    // B.8 British thermal unit_IT = 1.055 056 E+03 J; exact = 4.1868 J/(g·K) × 453.592 37 g × 5/9 K = 1 055.055 852 62 J
    { id: 'btu', symbol: 'Btu', factor: '1055.05585262' },
    // B.8 electronvolt = 1.602 177 E-19 J; exact since the 2019 SI redefinition (e = 1.602 176 634 E-19 C)
    { id: 'ev', symbol: 'eV', factor: '0.0000000000000000001602176634' },
  ],
};
