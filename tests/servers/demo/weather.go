package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"strings"
)

// weatherReading is the structured output of weather_current and the body
// of demo://weather/{location}. Field order is the JSON order clients see.
type weatherReading struct {
	Location    string  `json:"location"`
	Temperature float64 `json:"temperature"`
	Units       string  `json:"units"`
	Conditions  string  `json:"conditions"`
	Humidity    int     `json:"humidity"`
}

var conditionsList = []string{
	"clear", "sunny", "partly cloudy", "overcast", "light rain",
	"heavy rain", "thunderstorms", "fog", "snow", "windy",
}

// unitSymbols also serves as the set of valid unit systems.
var unitSymbols = map[string]string{
	"metric":   "°C",
	"imperial": "°F",
	"kelvin":   "K",
}

// fakeWeather derives a reading from the location alone so that tests
// calling the tool, the template, or the prompt all see the same numbers.
// Case and surrounding space are ignored so "sf" and " SF " agree.
func fakeWeather(location, units string) (weatherReading, error) {
	if _, ok := unitSymbols[units]; !ok {
		return weatherReading{}, fmt.Errorf("unknown units %q (want metric, imperial or kelvin)", units)
	}
	location = strings.TrimSpace(location)
	if location == "" {
		return weatherReading{}, fmt.Errorf("location must not be empty")
	}

	h := fnv.New64a()
	h.Write([]byte(strings.ToLower(location)))
	sum := h.Sum64()

	// Tenths of a degree Celsius in [-10.0, 35.0).
	celsius := float64(int64(sum%450)-100) / 10
	temp := celsius
	switch units {
	case "imperial":
		temp = celsius*9/5 + 32
	case "kelvin":
		temp = celsius + 273.15
	}
	return weatherReading{
		Location:    location,
		Temperature: math.Round(temp*10) / 10,
		Units:       units,
		Conditions:  conditionsList[(sum>>16)%uint64(len(conditionsList))],
		Humidity:    20 + int((sum>>32)%76),
	}, nil
}

// summary is the human-readable form used for text content.
func (r weatherReading) summary() string {
	return fmt.Sprintf("Current weather in %s: %s %s, %s, humidity %d%%",
		r.Location, formatNumber(r.Temperature), unitSymbols[r.Units], r.Conditions, r.Humidity)
}
