#pragma once

// An independent reference for LoadBalancer::solve: the load-balancing LP solved by enumerating the vertices
// of its feasible polyhedron, with no use of the water-filling structure. Exponential in the group size, so
// for tests with small groups only.

#include "core/collab/LoadBalance.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace sahaj::test {

struct ReferenceVertex {
    std::vector<double> shares; // per member of the group
    double xi = 0.0;
};

// One constraint a·x >= c (or a·x = c) over x = (w of each aggregator with known bandwidth, ξ).
struct LpRow {
    std::vector<double> a;
    double c = 0.0;
};

// Solves the square system rows·x = c by Gaussian elimination with partial pivoting; nullopt if singular.
inline std::optional<std::vector<double>> solveSquare(std::vector<LpRow> rows) {
    const std::size_t n = rows.size();
    for (std::size_t col = 0; col < n; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < n; ++r) {
            if (std::abs(rows[r].a[col]) > std::abs(rows[pivot].a[col]))
                pivot = r;
        }
        if (std::abs(rows[pivot].a[col]) < 1e-12)
            return std::nullopt;
        std::swap(rows[col], rows[pivot]);
        for (std::size_t r = 0; r < n; ++r) {
            if (r == col)
                continue;
            const double factor = rows[r].a[col] / rows[col].a[col];
            for (std::size_t k = col; k < n; ++k)
                rows[r].a[k] -= factor * rows[col].a[k];
            rows[r].c -= factor * rows[col].c;
        }
    }
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = rows[i].c / rows[i].a[i];
    return x;
}

// Every vertex of { Σ w = 1, w >= 0, ξ >= (1 + (G-2)·w_i)/b_i for members with b_i > 0 } whose ξ is within
// `tolerance` (relative) of the least, i.e. the optimal vertices, least ξ first. Empty when no aggregator
// has b_i > 0.
inline std::vector<ReferenceVertex> optimalVertices(const std::vector<collab::MemberBandwidth>& members,
                                                    double tolerance = 1e-9) {
    const double groupSizeMinusTwo = static_cast<double>(members.size()) - 2.0;
    std::vector<std::size_t> aggregators; // member index of each w variable
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i].canAggregate && members[i].bandwidth > 0.0)
            aggregators.push_back(i);
    }
    const std::size_t m = aggregators.size();
    if (m == 0)
        return {};
    const std::size_t n = m + 1; // the last variable is ξ

    LpRow sumToOne{std::vector<double>(n, 0.0), 1.0};
    for (std::size_t j = 0; j < m; ++j)
        sumToOne.a[j] = 1.0;
    std::vector<LpRow> inequalities;
    for (std::size_t j = 0; j < m; ++j) {
        LpRow nonNegative{std::vector<double>(n, 0.0), 0.0};
        nonNegative.a[j] = 1.0;
        inequalities.push_back(nonNegative);
    }
    for (std::size_t i = 0; i < members.size(); ++i) {
        const double b = members[i].bandwidth;
        if (b <= 0.0)
            continue;
        LpRow time{std::vector<double>(n, 0.0), 1.0 / b};
        time.a[m] = 1.0;
        for (std::size_t j = 0; j < m; ++j) {
            if (aggregators[j] == i)
                time.a[j] = -groupSizeMinusTwo / b;
        }
        inequalities.push_back(time);
    }

    const auto feasible = [&](const std::vector<double>& x) {
        for (const LpRow& row : inequalities) {
            double value = 0.0;
            for (std::size_t k = 0; k < n; ++k)
                value += row.a[k] * x[k];
            if (value < row.c - 1e-9 * (1.0 + std::abs(row.c)))
                return false;
        }
        return true;
    };

    // A vertex: the equality plus m linearly independent tight inequalities. Enumerate m-subsets.
    std::vector<ReferenceVertex> vertices;
    double best = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> chosen(m);
    for (std::size_t k = 0; k < m; ++k)
        chosen[k] = k;
    const std::size_t count = inequalities.size();
    while (true) {
        std::vector<LpRow> system{sumToOne};
        for (const std::size_t k : chosen)
            system.push_back(inequalities[k]);
        if (const auto x = solveSquare(system); x && feasible(*x)) {
            ReferenceVertex vertex{std::vector<double>(members.size(), 0.0), (*x)[m]};
            for (std::size_t j = 0; j < m; ++j)
                vertex.shares[aggregators[j]] = (*x)[j];
            best = std::min(best, vertex.xi);
            vertices.push_back(vertex);
        }
        // Next m-subset of [0, count) in lexicographic order.
        std::size_t k = m;
        while (k > 0 && chosen[k - 1] == count - m + (k - 1))
            --k;
        if (k == 0)
            break;
        ++chosen[k - 1];
        for (std::size_t r = k; r < m; ++r)
            chosen[r] = chosen[r - 1] + 1;
    }
    std::vector<ReferenceVertex> optimal;
    for (const ReferenceVertex& vertex : vertices) {
        if (vertex.xi <= best + tolerance * std::abs(best))
            optimal.push_back(vertex);
    }
    std::sort(optimal.begin(), optimal.end(), [](const auto& a, const auto& b) { return a.xi < b.xi; });
    return optimal;
}

} // namespace sahaj::test
