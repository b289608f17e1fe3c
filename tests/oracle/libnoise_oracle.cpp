// libnoise_oracle.cpp - the test oracle for the libnoise front-end: builds the
// module graph of one of our JSON test packs (libnoise/<NAME>.json, the format of
// host/frontend/libnoise/libnoise.c) from Debian's libnoise-dev (the real library) and prints the
// value of one module at each point read from standard input.
//
//   libnoise_oracle FILE.json MODULE_ID WORLD_SEED < points   ("X Y Z" per line)
//   libnoise_oracle FILE.json MODULE_ID WORLD_SEED --bench N   (the reference for bench/)
//   libnoise_oracle --gradient < "X Y Z SEED QUALITY" lines: libnoise's GradientCoherentNoise3D
//       itself (no module: the SharpNoise dialect's tests build octave sums from it)
//
// Output: one line per point, the value's 64 bits in hex and %.17g. WORLD_SEED is
// added to every module's seed (int arithmetic), as chunkfill's --seed is. It
// reads only what the test packs use; a module it does not know is an error.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cjson/cJSON.h>
#include <libnoise/noise.h>

using namespace noise;

struct Graph {
    cJSON *mods = nullptr;
    int world = 0;
    std::map<std::string, module::Module *> byId;
    std::vector<std::unique_ptr<module::Module>> owned;
};

[[noreturn]] static void die(const char *what, const char *name)
{
    std::fprintf(stderr, "libnoise_oracle: %s %s\n", what, name ? name : "");
    std::exit(2);
}

static double num(const cJSON *o, const char *k, double def)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return v ? v->valuedouble : def;
}
static int seedOf(Graph &g, const cJSON *o, int def)
{
    return (int)((uint32_t)(int)num(o, "seed", def) + (uint32_t)g.world);
}
static NoiseQuality quality(const cJSON *o)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "noiseQuality");
    if (!v) return QUALITY_STD;
    if (!std::strcmp(v->valuestring, "fast")) return QUALITY_FAST;
    if (!std::strcmp(v->valuestring, "best")) return QUALITY_BEST;
    return QUALITY_STD;
}
static bool flag(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return v && cJSON_IsTrue(v);
}

static module::Module *build(Graph &g, const cJSON *v);

static void sources(Graph &g, module::Module *m, const cJSON *o, int n)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "sources");
    for (int i = 0; i < n; i++) m->SetSourceModule(i, *build(g, cJSON_GetArrayItem(s, i)));
}

template <class T> static T *make(Graph &g)
{
    T *m = new T();
    g.owned.emplace_back(m);
    return m;
}

template <class T> static void octaves(Graph &g, T *m, const cJSON *o)
{
    m->SetFrequency(num(o, "frequency", 1.0));
    m->SetLacunarity(num(o, "lacunarity", 2.0));
    m->SetOctaveCount((int)num(o, "octaveCount", 6));
    m->SetSeed(seedOf(g, o, 0));
    m->SetNoiseQuality(quality(o));
}

static module::Module *buildObj(Graph &g, const cJSON *o)
{
    const char *t = cJSON_GetObjectItemCaseSensitive(o, "module")->valuestring;
    std::string k = t;
    if (k == "Perlin") {
        auto m = make<module::Perlin>(g);
        octaves(g, m, o);
        m->SetPersistence(num(o, "persistence", 0.5));
        return m;
    }
    if (k == "Billow") {
        auto m = make<module::Billow>(g);
        octaves(g, m, o);
        m->SetPersistence(num(o, "persistence", 0.5));
        return m;
    }
    if (k == "RidgedMulti") { auto m = make<module::RidgedMulti>(g); octaves(g, m, o); return m; }
    if (k == "Voronoi") {
        auto m = make<module::Voronoi>(g);
        m->SetFrequency(num(o, "frequency", 1.0));
        m->SetDisplacement(num(o, "displacement", 1.0));
        m->EnableDistance(flag(o, "enableDistance"));
        m->SetSeed(seedOf(g, o, 0));
        return m;
    }
    if (k == "Const" || k == "Constant") { auto m = make<module::Const>(g); m->SetConstValue(num(o, "constValue", num(o, "value", 0.0))); return m; }
    if (k == "Checkerboard") return make<module::Checkerboard>(g);
    if (k == "Cylinders") { auto m = make<module::Cylinders>(g); m->SetFrequency(num(o, "frequency", 1.0)); return m; }
    if (k == "Spheres") { auto m = make<module::Spheres>(g); m->SetFrequency(num(o, "frequency", 1.0)); return m; }
    if (k == "Abs") { auto m = make<module::Abs>(g); sources(g, m, o, 1); return m; }
    if (k == "Clamp") {
        auto m = make<module::Clamp>(g);
        sources(g, m, o, 1);
        m->SetBounds(num(o, "lowerBound", -1.0), num(o, "upperBound", 1.0));
        return m;
    }
    if (k == "Curve") {
        auto m = make<module::Curve>(g);
        sources(g, m, o, 1);
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "controlPoints");
        for (const cJSON *e = p->child; e; e = e->next)
            m->AddControlPoint(e->child->valuedouble, e->child->next->valuedouble);
        return m;
    }
    if (k == "Exponent") { auto m = make<module::Exponent>(g); sources(g, m, o, 1); m->SetExponent(num(o, "exponent", 1.0)); return m; }
    if (k == "Invert") { auto m = make<module::Invert>(g); sources(g, m, o, 1); return m; }
    if (k == "ScaleBias") {
        auto m = make<module::ScaleBias>(g);
        sources(g, m, o, 1);
        m->SetScale(num(o, "scale", 1.0));
        m->SetBias(num(o, "bias", 0.0));
        return m;
    }
    if (k == "Terrace") {
        auto m = make<module::Terrace>(g);
        sources(g, m, o, 1);
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "controlPoints");
        for (const cJSON *e = p->child; e; e = e->next) m->AddControlPoint(e->valuedouble);
        m->InvertTerraces(flag(o, "invertTerraces"));
        return m;
    }
    if (k == "Add") { auto m = make<module::Add>(g); sources(g, m, o, 2); return m; }
    if (k == "Max") { auto m = make<module::Max>(g); sources(g, m, o, 2); return m; }
    if (k == "Min") { auto m = make<module::Min>(g); sources(g, m, o, 2); return m; }
    if (k == "Multiply") { auto m = make<module::Multiply>(g); sources(g, m, o, 2); return m; }
    if (k == "Power") { auto m = make<module::Power>(g); sources(g, m, o, 2); return m; }
    if (k == "Blend") {
        auto m = make<module::Blend>(g);
        sources(g, m, o, 2);
        m->SetControlModule(*build(g, cJSON_GetObjectItemCaseSensitive(o, "control")));
        return m;
    }
    if (k == "Select") {
        auto m = make<module::Select>(g);
        sources(g, m, o, 2);
        m->SetControlModule(*build(g, cJSON_GetObjectItemCaseSensitive(o, "control")));
        m->SetBounds(num(o, "lowerBound", -1.0), num(o, "upperBound", 1.0));
        m->SetEdgeFalloff(num(o, "edgeFalloff", 0.0));
        return m;
    }
    if (k == "Displace") {
        auto m = make<module::Displace>(g);
        m->SetSourceModule(0, *build(g, cJSON_GetObjectItemCaseSensitive(o, "source")));
        m->SetXDisplaceModule(*build(g, cJSON_GetObjectItemCaseSensitive(o, "x")));
        m->SetYDisplaceModule(*build(g, cJSON_GetObjectItemCaseSensitive(o, "y")));
        m->SetZDisplaceModule(*build(g, cJSON_GetObjectItemCaseSensitive(o, "z")));
        return m;
    }
    if (k == "RotatePoint") {
        auto m = make<module::RotatePoint>(g);
        sources(g, m, o, 1);
        m->SetAngles(num(o, "xAngle", 0.0), num(o, "yAngle", 0.0), num(o, "zAngle", 0.0));
        return m;
    }
    if (k == "ScalePoint") {
        auto m = make<module::ScalePoint>(g);
        sources(g, m, o, 1);
        m->SetScale(num(o, "xScale", 1.0), num(o, "yScale", 1.0), num(o, "zScale", 1.0));
        return m;
    }
    if (k == "TranslatePoint") {
        auto m = make<module::TranslatePoint>(g);
        sources(g, m, o, 1);
        m->SetTranslation(num(o, "xTranslation", 0.0), num(o, "yTranslation", 0.0), num(o, "zTranslation", 0.0));
        return m;
    }
    if (k == "Turbulence") {
        auto m = make<module::Turbulence>(g);
        sources(g, m, o, 1);
        m->SetFrequency(num(o, "frequency", 1.0));
        m->SetPower(num(o, "power", 1.0));
        m->SetRoughness((int)num(o, "roughness", 3));
        m->SetSeed(seedOf(g, o, 0));
        return m;
    }
    if (k == "Cache") { auto m = make<module::Cache>(g); sources(g, m, o, 1); return m; }
    die("unknown module", t);
}

static module::Module *build(Graph &g, const cJSON *v)
{
    if (!v) die("missing source", nullptr);
    if (cJSON_IsString(v)) {
        auto it = g.byId.find(v->valuestring);
        if (it != g.byId.end()) return it->second;
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(g.mods, v->valuestring);
        if (!o) die("unknown module id", v->valuestring);
        module::Module *m = buildObj(g, o);
        g.byId[v->valuestring] = m;
        return m;
    }
    return buildObj(g, v);
}

int main(int argc, char **argv)
{
    if (argc == 2 && !std::strcmp(argv[1], "--gradient")) {
        double x, y, z;
        int seed, q;
        while (std::scanf("%lf %lf %lf %d %d", &x, &y, &z, &seed, &q) == 5) {
            double v = GradientCoherentNoise3D(x, y, z, seed, (NoiseQuality)q);
            uint64_t b;
            std::memcpy(&b, &v, sizeof b);
            std::printf("%016llx %.17g\n", (unsigned long long)b, v);
        }
        return 0;
    }
    if (argc != 4 && argc != 6) die("usage: libnoise_oracle FILE.json MODULE_ID WORLD_SEED [--bench N] < points", nullptr);
    FILE *f = std::fopen(argv[1], "rb");
    if (!f) die("cannot open", argv[1]);
    std::string text;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    cJSON *root = cJSON_Parse(text.c_str());
    if (!root) die("malformed JSON in", argv[1]);
    Graph g;
    g.mods = cJSON_GetObjectItemCaseSensitive(root, "modules");
    g.world = (int)std::strtol(argv[3], nullptr, 10);
    cJSON *id = cJSON_CreateString(argv[2]);
    module::Module *m = build(g, id);
    if (argc == 6 && !std::strcmp(argv[4], "--bench")) {
        // the terrain fill of bench_fill's chunks (i at (1000+7i, -500+5i), 3 warm-up):
        // MODULE_ID at (x, 0, z) per column, then height*scale + offset - y per block
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "terrain");
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(root, "world");
        double S = num(t, "scale", 1.0), O = num(t, "offset", 0.0);
        int miny = w ? (int)num(w, "minY", 0) : 0, h = w ? (int)num(w, "height", 256) : 256;
        int n = std::atoi(argv[5]), warm = 3;
        std::vector<double> out((size_t)h * 256), ms;
        double sum = 0;
        for (int i = 0; i < warm + n; i++) {
            auto a = std::chrono::steady_clock::now();
            int cx = 1000 + 7 * i, cz = -500 + 5 * i;
            for (int zz = 0; zz < 16; zz++)
                for (int xx = 0; xx < 16; xx++) {
                    double hv = m->GetValue(cx * 16.0 + xx, 0.0, cz * 16.0 + zz);
                    for (int yy = 0; yy < h; yy++) out[((size_t)yy * 16 + zz) * 16 + xx] = ((hv * S) + O) - (miny + yy);
                }
            auto b = std::chrono::steady_clock::now();
            sum += out[1000];
            if (i >= warm) ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
        }
        std::sort(ms.begin(), ms.end());
        std::printf("{\"libnoise_ms_per_chunk\": {\"median\": %.3f, \"min\": %.3f, \"max\": %.3f}, \"checksum\": %g}\n",
                    ms[ms.size() / 2], ms.front(), ms.back(), sum);
        cJSON_Delete(id);
        cJSON_Delete(root);
        return 0;
    }
    double x, y, z;
    while (std::scanf("%lf %lf %lf", &x, &y, &z) == 3) {
        double v = m->GetValue(x, y, z);
        uint64_t b;
        std::memcpy(&b, &v, sizeof b);
        std::printf("%016llx %.17g\n", (unsigned long long)b, v);
    }
    cJSON_Delete(id);
    cJSON_Delete(root);
    return 0;
}
