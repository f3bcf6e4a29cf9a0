package io.cosmolab.query.functions;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Distances and areas on the WGS 84 ellipsoid, the geography the spatial functions measure in
 * ({@link SpatialFunctions} says how closely they match the reference's examples). Positions are
 * {@code [longitude, latitude]} in degrees; results are in metres and square metres.
 */
final class Geodesy {
  private Geodesy() {}

  /** WGS 84 semi-major axis. */
  private static final double A = 6_378_137.0;

  /** WGS 84 flattening. */
  private static final double F = 1 / 298.257223563;

  private static final double B = A * (1 - F);
  private static final double E2 = F * (2 - F);
  private static final double E = Math.sqrt(E2);
  private static final double QP = q(Math.PI / 2);

  /** The radius of the sphere with the ellipsoid's area. */
  private static final double AUTHALIC_RADIUS = A * Math.sqrt(QP / 2);

  /** The geodesic distance between two positions (Vincenty's inverse formula). */
  static double distance(double[] p, double[] q) {
    double l = Math.toRadians(q[0] - p[0]);
    double u1 = Math.atan((1 - F) * Math.tan(Math.toRadians(p[1])));
    double u2 = Math.atan((1 - F) * Math.tan(Math.toRadians(q[1])));
    double sinU1 = Math.sin(u1);
    double cosU1 = Math.cos(u1);
    double sinU2 = Math.sin(u2);
    double cosU2 = Math.cos(u2);
    double lambda = l;
    for (int i = 0; i < 200; i++) {
      double sinLambda = Math.sin(lambda);
      double cosLambda = Math.cos(lambda);
      double sinSigma = Math.hypot(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda);
      if (sinSigma == 0) {
        return 0; // the same position
      }
      double cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
      double sigma = Math.atan2(sinSigma, cosSigma);
      double sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma;
      double cos2Alpha = 1 - sinAlpha * sinAlpha;
      double cos2SigmaM = cos2Alpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cos2Alpha;
      double c = F / 16 * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
      double previous = lambda;
      lambda =
          l
              + (1 - c)
                  * F
                  * sinAlpha
                  * (sigma
                      + c
                          * sinSigma
                          * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)));
      if (Math.abs(lambda - previous) < 1e-12) {
        double uSq = cos2Alpha * (A * A - B * B) / (B * B);
        double bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
        double bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
        double deltaSigma =
            bigB
                * sinSigma
                * (cos2SigmaM
                    + bigB
                        / 4
                        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                            - bigB
                                / 6
                                * cos2SigmaM
                                * (-3 + 4 * sinSigma * sinSigma)
                                * (-3 + 4 * cos2SigmaM * cos2SigmaM)));
        return B * bigA * (sigma - deltaSigma);
      }
    }
    return authalicDistance(p, q); // nearly antipodal: the iteration does not settle
  }

  /** The great-circle distance on the authalic sphere. */
  private static double authalicDistance(double[] p, double[] q) {
    double b1 = authalicLatitude(Math.toRadians(p[1]));
    double b2 = authalicLatitude(Math.toRadians(q[1]));
    double dLon = Math.toRadians(q[0] - p[0]);
    double h =
        Math.pow(Math.sin((b2 - b1) / 2), 2)
            + Math.cos(b1) * Math.cos(b2) * Math.pow(Math.sin(dLon / 2), 2);
    return 2 * AUTHALIC_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  /**
   * The area enclosed by a closed ring (its last position repeats its first), with great-circle
   * edges on the authalic sphere: the spherical excess of a fan of triangles (Van Oosterom and
   * Strackee's formula, stable for small triangles), whichever way the ring turns.
   */
  static double ringArea(JsonNode ring) {
    int n = ring.size() - 1;
    double[][] v = new double[n][];
    for (int i = 0; i < n; i++) {
      double lon = Math.toRadians(ring.get(i).get(0).doubleValue());
      double lat = authalicLatitude(Math.toRadians(ring.get(i).get(1).doubleValue()));
      v[i] =
          new double[] {
            Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)
          };
    }
    double excess = 0;
    for (int i = 1; i + 1 < n; i++) {
      double[] a = v[0];
      double[] b = v[i];
      double[] c = v[i + 1];
      double triple =
          a[0] * (b[1] * c[2] - b[2] * c[1])
              + a[1] * (b[2] * c[0] - b[0] * c[2])
              + a[2] * (b[0] * c[1] - b[1] * c[0]);
      excess += 2 * Math.atan2(triple, 1 + dot(a, b) + dot(b, c) + dot(c, a));
    }
    return Math.abs(excess) * AUTHALIC_RADIUS * AUTHALIC_RADIUS;
  }

  private static double dot(double[] x, double[] y) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  }

  private static double authalicLatitude(double phi) {
    return Math.asin(Math.max(-1, Math.min(1, q(phi) / QP)));
  }

  private static double q(double phi) {
    double s = Math.sin(phi);
    return (1 - E2) * (s / (1 - E2 * s * s) - Math.log((1 - E * s) / (1 + E * s)) / (2 * E));
  }
}
